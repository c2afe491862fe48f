#!/bin/bash
# Fuzzes the parsers of server data (reply parser, PASV/EPSV replies, FEAT, MDTM times, MLSD and
# LIST listings) with libFuzzer for MINUTES minutes (default 10). Findings go to
# .build/fuzz/findings/ (crash-*, timeout-*); the corpus grows in .build/fuzz/corpus/.
# Usage: scripts/fuzz.sh [MINUTES] [extra libFuzzer flags]
# Exit 0: no crash found in the time given.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=${1:-10}
[ $# -gt 0 ] && shift
work="$root/.build/fuzz"
mkdir -p "$work/corpus" "$work/findings"
# Seeds: the real listing and reply samples of the project.
find "$root/Tests/FTPListingTests/Fixtures" -name "*.txt" -size -64k -print0 |
    while IFS= read -r -d '' f; do
        cp "$f" "$work/corpus/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
    done
printf '227 Entering Passive Mode (127,0,0,1,195,80).\r\n' > "$work/corpus/seed-227"
printf '229 Entering Extended Passive Mode (|||50000|)\r\n' > "$work/corpus/seed-229"
printf '211-Features:\r\n MLST type*;size*;modify*;\r\n MDTM\r\n REST STREAM\r\n211 End\r\n' > "$work/corpus/seed-feat"
printf 'type=file;size=12;modify=20240501102000; a.jpg\r\ntype=dir;modify=20240501102000; DCIM\r\n' > "$work/corpus/seed-mlsd"
printf -- '-rw-r--r--    1 ftp ftp  1048576 May 01 10:20 a.jpg\r\ndrwxr-xr-x 2 0 0 4096 Jan  1  2019 b\r\n05-01-24  10:20AM       <DIR>          c\r\n' > "$work/corpus/seed-list"

files=("$root"/Sources/FTPListing/*.swift)
for f in FTPReply PassiveReply FTPError FTPFeatures FTPTime FTPSessionConfiguration; do
    files+=("$root/Sources/FTPClient/$f.swift")
done
echo "building the fuzz target (swiftc -sanitize=fuzzer,address)..." >&2
(cd "$work" && swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name FuzzParsers \
    "${files[@]}" "$root"/Benchmarks/fuzz/*.swift -o "$work/fuzz-parsers")
seconds=$((minutes * 60))
echo "fuzzing for $minutes minute(s)..." >&2
cd "$work/findings"
"$work/fuzz-parsers" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "$@" "$work/corpus"
