#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Times LocalScanner's scan + XXH3-128 hash of FOLDER, cold digest cache then warm, next to
# `xxhsum -H2` over the same files (both from the page cache: the tree is read once first).
# Usage: Benchmarks/hash-tree/run.sh FOLDER
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tree=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One module: LocalTree's own `import SyncCore` lines are dropped from its copies.
mkdir -p "$work/src"
for f in "$root"/Sources/LocalTree/*.swift; do grep -v '^import SyncCore$' "$f" >"$work/src/$(basename "$f")"; done
(cd "$work" && swiftc -O -wmo -module-name LocalTree -I "$root/Sources/CXXHash" -lxxhash \
    "$root"/Sources/SyncCore/*.swift "$work"/src/*.swift "$here/../Support/Timing.swift" "$here/main.swift" -o "$work/hash-tree")
find "$tree" -type f -exec cat {} + >/dev/null   # into the page cache
/usr/bin/time -f 'ftpsync scan: wall %e s, CPU %U+%S s, peak RSS %M KiB' "$work/hash-tree" "$tree"
/usr/bin/time -f 'xxhsum -H2: wall %e s, CPU %U+%S s, peak RSS %M KiB' \
    sh -c "find '$tree' -type f -print0 | xargs -0 xxhsum -H2 >/dev/null 2>&1"
