#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Times FTPListing on 1,000,000 UNIX LIST lines (issue 3: must take < 1 s of CPU, release build).
# Usage: Benchmarks/listing-parse/run.sh [LINES]   (from anywhere; default 1000000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lines=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A realistic mix: time-of-day and year lines, files, folders, links, names with spaces, ACL marks.
awk -v n="$lines" 'BEGIN {
    split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mon, " ")
    for (i = 0; i < n; i++) {
        m = mon[i % 12 + 1]; d = i % 28 + 1
        if (i % 7 == 0)       printf "drwxr-xr-x    2 1001     1001         4096 %s %2d  2019 folder %d\r\n", m, d, i
        else if (i % 11 == 0) printf "lrwxrwxrwx    1 ftp      ftp            14 %s %02d 09:%02d link-%d -> target %d\r\n", m, d, i % 60, i, i
        else if (i % 5 == 0)  printf "-rw-r--r--+   1 labuser  ftplab   %9d %s %2d %2d:%02d photo %d with spaces.jpg\r\n", i * 37, m, d, i % 24, i % 60, i
        else                  printf "-rw-r--r--    1 1001     1001     %9d %s %02d %02d:%02d file-%07d.bin\r\n", i * 13, m, d, i % 24, i % 60, i
    }
}' > "$work/list.txt"

# main.swift holds top-level code, so compile it as the module's main file (no -parse-as-library).
(cd "$work" && swiftc -O -wmo -module-name FTPListing "$root"/Sources/FTPListing/*.swift "$here/../Support/Timing.swift" "$here/main.swift" \
    -o "$work/listing-parse")
"$work/listing-parse" "$work/list.txt"
