#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Fuzzes the parsers of server data (reply parser, PASV/EPSV replies, FEAT, MDTM times, MLSD and
# LIST listings) with libFuzzer for MINUTES minutes (default 10). Findings go to
# .build/fuzz/findings/ (crash-*, timeout-*); the corpus grows in .build/fuzz/corpus/.
# Usage: scripts/fuzz.sh [MINUTES] [extra libFuzzer flags]
#        scripts/fuzz.sh --lines [N] [options]   the deterministic mutated-lines mode without
#        libFuzzer (Benchmarks/fuzz/mutated-lines/run.sh: N lines, default 1,000,000; fails on a
#        crash or above 2 s of CPU per 100,000 lines)
# Exit 0: no crash found in the time given.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lines_mode="$root/Benchmarks/fuzz/mutated-lines/run.sh"
if [ "${1:-}" = "--lines" ]; then
    shift
    exec "$lines_mode" "$@"
fi
minutes=${1:-10}
[ $# -gt 0 ] && shift
work="$root/.build/fuzz"
mkdir -p "$work/corpus" "$work/findings"
# Seeds: every listing line the tests know (../shared/cases, Tests/FTPListingTests/Fixtures/**
# with the parity tables, Tests/IntegrationTests/Fixtures/listing-kinds), one file per line, as
# the mutated-lines mode collects them; the whole sample listings; a few replies.
FUZZ_WORK="$work/lines" "$lines_mode" 0 --write-corpus "$work/corpus" >&2
find "$root/Tests/FTPListingTests/Fixtures" -name "*.txt" -size -64k -print0 |
    while IFS= read -r -d '' f; do
        cp "$f" "$work/corpus/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
    done
printf '227 Entering Passive Mode (127,0,0,1,195,80).\r\n' > "$work/corpus/seed-227"
printf '229 Entering Extended Passive Mode (|||50000|)\r\n' > "$work/corpus/seed-229"
printf '211-Features:\r\n MLST type*;size*;modify*;\r\n MDTM\r\n REST STREAM\r\n211 End\r\n' > "$work/corpus/seed-feat"

# FTPListing as its own module (FTPTime imports it), then the target with the FTPClient files
# that read server text.
files=()
for f in FTPReply PassiveReply FTPError FTPFeatures FTPTime FTPSessionConfiguration TLSSettings; do
    files+=("$root/Sources/FTPClient/$f.swift")
done
echo "building the fuzz target (swiftc -sanitize=fuzzer,address)..." >&2
(cd "$work" && swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name FTPListing -emit-module \
    -emit-library -static "$root"/Sources/FTPListing/*.swift -o "$work/libFTPListing.a")
(cd "$work" && swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name FuzzParsers -I "$work" \
    "${files[@]}" "$root"/Benchmarks/fuzz/*.swift "$work/libFTPListing.a" -o "$work/fuzz-parsers")
seconds=$((minutes * 60))
echo "fuzzing for $minutes minute(s)..." >&2
cd "$work/findings"
"$work/fuzz-parsers" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "$@" "$work/corpus"
