#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Checks that the pure targets stay pure: they import nothing but Foundation and reach no
# clock, disk, network, environment or process state (the caller passes those in as values:
# `ListingContext.now`, a `TimeZone`, a `Date`). Grep-based, on the code with `//` comments removed.
#
#   scripts/check-pure.sh [DIR...]     check DIR... (default: Sources/FTPListing Sources/SyncCore)
#   scripts/check-pure.sh --self-test  plant each kind of violation in a scratch folder and
#                                      check that every one is caught (and a clean file is not)
#
# Exit status 0 when nothing was found; 1 with one line per finding (file:line: what) otherwise.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# One forbidden use per line: an extended regular expression, a tab, what it reaches.
# `(^|[^[:alnum:]_.])` before a call keeps methods of the same name (`writer.open(`) apart.
FORBIDDEN=$(
    cat <<'EOF'
(^|[^[:alnum:]_])Date\(\)	the clock (take `now` as a parameter)
Date\.now	the clock (take `now` as a parameter)
timeIntervalSinceNow|Date\(timeIntervalSinceNow	the clock (take `now` as a parameter)
(^|[^[:alnum:]_])(ContinuousClock|SuspendingClock|DispatchTime|DispatchWallTime|CFAbsoluteTimeGetCurrent|clock_gettime|gettimeofday|mach_absolute_time)([^[:alnum:]_]|$)	the clock
(TimeZone|Calendar|Locale)\.(current|autoupdatingCurrent)	the environment (take the time zone / calendar / locale as a parameter)
(^|[^[:alnum:]_])(ProcessInfo|CommandLine|getenv|setenv|environ)([^[:alnum:]_]|$)	the environment
(^|[^[:alnum:]_])(FileManager|FileHandle|Bundle|NSHomeDirectory|NSTemporaryDirectory)([^[:alnum:]_]|$)	the disk
(^|[^[:alnum:]_.])(fopen|open|openat|read|write|pread|pwrite|stat|lstat|fstat|unlink|rename|mkdir|opendir|readdir)\(	the disk (system call)
(String|Data|NSString|NSData)\(contentsOf|contentsOfFile:|\.write\(to(File)?:|atomically:	the disk
(^|[^[:alnum:]_])(URLSession|URLRequest|Socket|socket|getaddrinfo|connect|NWConnection|Network)([^[:alnum:]_(]|\()	the network
(^|[^[:alnum:]_])(Thread|DispatchQueue|sleep|usleep|nanosleep|pthread_[a-z_]+)([^[:alnum:]_]|$)	threads or sleeping (the pure targets compute; the caller schedules)
\.random\(|(^|[^[:alnum:]_])(SystemRandomNumberGenerator|arc4random[a-z_]*|UUID\(\)|random\(\))	randomness (take a generator or the value as a parameter)
(^|[^[:alnum:]_])(print|debugPrint|fputs|NSLog)\(	output (return values; the caller shows them)
EOF
)

# Prints the findings in the Swift files under the given folders; status 1 when there are any.
check() {
    local found=0 file
    while IFS= read -r -d '' file; do
        # Code without `//` comments (a `//` inside a string literal hides the rest of its line:
        # missed, never a false alarm).
        local code
        code=$(sed -e 's#//.*$##' "$file")
        # Imports: Foundation only.
        while IFS= read -r hit; do
            [ -n "$hit" ] || continue
            echo "$file:${hit%%:*}: imports ${hit#*:} (a pure target imports Foundation only)"
            found=1
        done < <(grep -nE '^[[:space:]]*(@[[:alnum:]_]+[[:space:]]+)*(public[[:space:]]+|internal[[:space:]]+|private[[:space:]]+)?import[[:space:]]' <<<"$code" |
            grep -vE ':[[:space:]]*(public[[:space:]]+)?import[[:space:]]+Foundation[[:space:]]*$' |
            sed -E 's/^([0-9]+):[[:space:]]*/\1:/')
        while IFS=$'\t' read -r pattern what; do
            while IFS= read -r hit; do
                [ -n "$hit" ] || continue
                echo "$file:${hit%%:*}: reaches $what: ${hit#*:}"
                found=1
            done < <(grep -nE "$pattern" <<<"$code" | sed -E 's/^([0-9]+):[[:space:]]*/\1:/')
        done <<<"$FORBIDDEN"
    done < <(find "$@" -name '*.swift' -print0 | sort -z)
    return $found
}

self_test() {
    local scratch failures=0 line
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' RETURN
    printf 'import Foundation\n\n/// Date() and FileManager in a comment are fine.\n' >"$scratch/Clean.swift"
    printf 'func f(_ t: DateTokens) { _ = t.time(1) }  // open( here too\n' >>"$scratch/Clean.swift"
    if ! out=$(check "$scratch"); then
        echo "check-pure self-test: a clean file was refused:" >&2
        echo "$out" >&2
        failures=1
    fi
    rm -f "$scratch/Clean.swift"
    # One planted violation per file; each must be found.
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        printf 'import Foundation\n\nfunc planted() {\n    %s\n}\n' "$line" >"$scratch/Planted.swift"
        if check "$scratch" >/dev/null; then
            echo "check-pure self-test: not caught: $line" >&2
            failures=1
        fi
    done <<'EOF'
import Glibc
@preconcurrency import Dispatch
let now = Date()
let now = Date.now
let age = stamp.timeIntervalSinceNow
let zone = TimeZone.current
let calendar = Calendar.current
let locale = Locale.autoupdatingCurrent
let home = ProcessInfo.processInfo.environment["HOME"]
let home = getenv("HOME")
let files = FileManager.default
let file = fopen("/etc/passwd", "r")
let fd = open("/etc/passwd", O_RDONLY)
let text = try String(contentsOfFile: "/etc/hosts")
let fd = socket(AF_INET, SOCK_STREAM, 0)
let session = URLSession.shared
let started = ContinuousClock.now
Thread.sleep(forTimeInterval: 1)
let pick = Int.random(in: 0..<9)
print("planned")
EOF
    rm -f "$scratch/Planted.swift"
    if [ $failures = 0 ]; then echo "check-pure self-test: every planted violation was caught"; fi
    return $failures
}

if [ "${1:-}" = --self-test ]; then
    self_test
    exit $?
fi
[ $# -gt 0 ] || set -- Sources/FTPListing Sources/SyncCore
if check "$@"; then
    echo "check-pure: $* import only Foundation and reach no clock, disk, network or environment"
    exit 0
fi
echo "check-pure: the pure targets must take these as parameters (docs/architecture.md)" >&2
exit 1
