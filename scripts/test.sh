#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Run every check of the project: the README's test command and CI's (.ci/run).
#
#   scripts/test.sh [ARGS...]      ARGS go to `swift test` (e.g. --filter SyncCoreTests)
#
# Steps: install missing dependencies (scripts/install-deps.sh, as root on a fresh
# Debian 12), `swift build -Xswiftc -warnings-as-errors` (and no "warning:" line), `swift format lint --strict`
# printing nothing, the licence header of every source (scripts/spdx.sh), the purity check of
# FTPListing and SyncCore (scripts/check-pure.sh, after its self-test), `swift test` (unit tests and the integration tests, which start
# FTP servers on loopback through scripts/ftp-server.sh). Every step runs even when
# an earlier one failed (except tests after a failed build); the last line is a
# summary. Exit status 0 only when every step passed. FTPSYNC_TEST_DEB=1 adds the check of the
# Debian package (scripts/check-deb.sh) at the end.
set -uo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT" || exit 1

started=$(date +%s)
passed=()
failed=()
step() { printf '\n==> %s\n' "$*"; }

step "dependencies (scripts/install-deps.sh)"
if scripts/install-deps.sh; then passed+=(deps); else failed+=(deps); fi

if ! command -v swift >/dev/null; then
    failed+=(swift)
    say "no swift on PATH: install the Swift 6 toolchain (https://www.swift.org/install/linux/)"
    echo "test.sh: FAIL (no Swift toolchain)"
    exit 1
fi

# -warnings-as-errors: an incremental build does not repeat the warnings of files it
# does not recompile, so grepping the output alone would miss them on a second run;
# as errors they block the build until fixed. The grep catches SwiftPM's own warnings.
STRICT=(-Xswiftc -warnings-as-errors)
mkdir -p .build
step "build (swift build ${STRICT[*]})"
swift build "${STRICT[@]}" 2>&1 | tee .build/test-build.log
build_rc=${PIPESTATUS[0]}
if [ "$build_rc" != 0 ]; then
    failed+=(build)
elif grep -q 'warning:' .build/test-build.log; then
    say "the build printed warnings:"
    grep 'warning:' .build/test-build.log | sort -u >&2
    failed+=(build-warnings)
else
    passed+=(build)
fi

step "format (swift format lint --strict)"
lint_out=$(swift format lint --strict -r Sources Tests Package.swift Examples Plugins 2>&1)
lint_rc=$?
if [ $lint_rc = 0 ] && [ -z "$lint_out" ]; then
    passed+=(format)
else
    printf '%s\n' "$lint_out" >&2
    say "fix with: swift format -i -r Sources Tests Package.swift Plugins"
    failed+=(format)
fi

step "licence headers (scripts/spdx.sh)"
if scripts/spdx.sh; then passed+=(licence); else failed+=(licence); fi

step "purity of the pure targets (scripts/check-pure.sh)"
if scripts/check-pure.sh --self-test && scripts/check-pure.sh; then passed+=(pure); else failed+=(pure); fi

if [ "$build_rc" = 0 ]; then
    step "tests (swift test ${STRICT[*]} $*)"
    before=$(scripts/ftp-server.sh list | cut -d' ' -f1)
    if swift test "${STRICT[@]}" "$@"; then passed+=(tests); else failed+=(tests); fi
    # servers a crashed or careless test left behind
    for pid in $(scripts/ftp-server.sh list | cut -d' ' -f1); do
        if ! grep -qx "$pid" <<<"$before"; then
            say "stopping test server $pid that the tests left running"
            scripts/ftp-server.sh stop "$pid"
            failed+=(server-left-running)
        fi
    done
else
    failed+=(tests-skipped)
fi

# The Debian package (scripts/check-deb.sh: build, lintian, dpkg -i, a run without Swift, man,
# completions, dpkg -r): 3 to 5 minutes more from a clean clone, so only when asked.
if [ "${FTPSYNC_TEST_DEB:-0}" = 1 ]; then
    step "Debian package (scripts/check-deb.sh)"
    if scripts/check-deb.sh; then passed+=(deb); else failed+=(deb); fi
fi

took=$(($(date +%s) - started))
if [ ${#failed[@]} = 0 ]; then
    echo "test.sh: PASS (${passed[*]}) in ${took}s"
    exit 0
fi
echo "test.sh: FAIL (failed: ${failed[*]}; passed: ${passed[*]:-none}) in ${took}s"
exit 1
