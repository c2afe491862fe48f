#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Times PullPlanner on ENTRIES remote entries (issue 8: a 1,000,000-entry pull planned in under
# 2 s, under 1 GiB peak RSS). Prints the plan time of a first pull and of a no-op pull, then
# the whole process's wall time, CPU time and peak RSS (inputs included) from GNU time.
# Usage: Benchmarks/planner/run.sh [ENTRIES]   (default 1000000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
entries=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && swiftc -O -wmo -module-name SyncCore "$root"/Sources/SyncCore/*.swift "$here/../Support/Timing.swift" "$here/main.swift" \
    -o "$work/planner")
/usr/bin/time -f 'process: wall %e s, CPU %U+%S s, peak RSS %M KiB' "$work/planner" "$entries"
