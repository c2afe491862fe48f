#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# The fuzz driver's mutated-lines mode: LINES (default 1,000,000) seeded mutations of every
# listing line the tests know, through every listing parser; fails on a crash or when a
# 100,000-line slice takes more than 2 s of CPU (release build).
# Usage: Benchmarks/fuzz/mutated-lines/run.sh [LINES] [more options of main.swift: --seed S,
#        --no-timing, --show K, --write-corpus DIR]
# Seeds: ../shared/cases (or $FUZZ_CASES), Tests/FTPListingTests/Fixtures/** (.txt lines, and
# the `line`/`input` strings of .json files, parity tables included) and
# Tests/IntegrationTests/Fixtures/listing-kinds/*.json: whatever exists when it runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
lines=${1:-1000000}
[ $# -gt 0 ] && shift
work=${FUZZ_WORK:-$(mktemp -d)}
[ -n "${FUZZ_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
cases=${FUZZ_CASES:-$root/../shared/cases}

# FTPListing as its own module (the FTPClient sources import it), then the driver with the
# FTPClient files that read server text.
(cd "$work" && swiftc -O -wmo -parse-as-library -module-name FTPListing -emit-module -emit-library -static \
    "$root"/Sources/FTPListing/*.swift -o "$work/libFTPListing.a")
client=""
for f in FTPReply PassiveReply FTPError FTPFeatures FTPSessionConfiguration TLSSettings NameCodec IconvPool; do client="$client $root/Sources/FTPClient/$f.swift"; done
# shellcheck disable=SC2086
(cd "$work" && swiftc -O -wmo -module-name MutatedLines -I "$work" $client "$root/Benchmarks/Support/Timing.swift" \
    "$here/SeedLines.swift" "$here/LineMutator.swift" "$here/main.swift" "$work/libFTPListing.a" -o "$work/mutated-lines")
"$work/mutated-lines" --lines "$lines" "$@" "$cases" "$root/Tests/FTPListingTests/Fixtures" \
    "$root/Tests/IntegrationTests/Fixtures/listing-kinds"
