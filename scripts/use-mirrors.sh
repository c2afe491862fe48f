#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Points SwiftPM at the local mirrors of the Swift packages ftpsync uses, on machines
# without access to GitHub (the lab's ../shared/mirrors next to the repository, or
# $FTPSYNC_MIRRORS). Package.swift and Package.resolved keep the real GitHub URLs, so
# a machine with internet access resolves the same versions from GitHub and needs none
# of this: with no mirror folder found the script does nothing and exits 0.
#
#   scripts/use-mirrors.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd -P)
for dir in "${FTPSYNC_MIRRORS:-}" "$repo/../shared/mirrors" /work/shared/mirrors; do
    [ -n "$dir" ] && [ -x "$dir/use-mirrors.sh" ] || continue
    "$dir/use-mirrors.sh" --check 2>/dev/null || "$dir/use-mirrors.sh" >/dev/null
    exit 0
done
exit 0
