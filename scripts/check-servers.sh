#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Self-check of the test-server scripts with curl and lftp (no ftpsync needed):
#
#   scripts/check-servers.sh          (as root; about 15 s)
#
# For pyftpdlib on 127.0.0.2 and vsftpd on 127.0.0.3, each serving a sample tree:
# LIST, RETR of odd names, a throttled RETR that takes time, a REST resume, the
# command log; for pyftpdlib also --drop-after and --no-epsv-mlsd. Prints one line
# per check and exits 1 if any failed.
set -uo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

S=$SCRIPTS_DIR/ftp-server.sh
work=$(mktemp -d /tmp/ftpsync-check.XXXXXX)
chmod 755 "$work" # vsftpd's user must be able to reach the served folders
pids=()
fails=0
cleanup() {
    [ ${#pids[@]} = 0 ] || "$S" stop "${pids[@]}" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

check() { # check NAME COMMAND... -> ok/FAIL line
    if "${@:2}" >/dev/null 2>&1; then echo "ok    $1"; else echo "FAIL  $1"; fails=$((fails + 1)); fi
}
start() { # start KIND ADDR USER [options] -> sets URL, LOG
    local out
    LOG=$work/$1.log
    out=$("$S" start "$1" "$work/root-$1" "$2" 0 "$3" pw-check --log "$LOG" "${@:4}") || return 1
    pids+=("${out%% *}")
    URL="ftp://$3:pw-check@$2:${out##* }"
}
elapsed_at_least() { # SECONDS COMMAND...
    local t0=$SECONDS
    "${@:2}" && [ $((SECONDS - t0)) -ge "$1" ]
}

"$SCRIPTS_DIR/install-deps.sh" || die "install-deps.sh failed"
for kind in pyftpdlib vsftpd; do
    "$SCRIPTS_DIR/make-sample-tree.sh" "$work/root-$kind" || die "make-sample-tree failed"
done

for kind in pyftpdlib vsftpd; do
    addr=127.0.0.2 user=alice
    [ $kind = vsftpd ] && addr=127.0.0.3 user=ftpsync-check
    # 1 MB/s: the 3 MiB file takes 2 s or more
    start $kind $addr $user --throttle 1000000 || { echo "FAIL  $kind start"; fails=$((fails + 1)); continue; }
    root=$work/root-$kind
    check "$kind LIST shows the sample tree" bash -c "curl -s '$URL/' | grep -q 'semi;colon.txt'"
    check "$kind lftp RETR of a Chinese name" bash -c "lftp -e 'set cmd:fail-exit yes; get \"中文资料/说明.txt\" -o $work/cn-$kind.txt; bye' '$URL' && cmp $work/cn-$kind.txt '$root/中文资料/说明.txt'"
    check "$kind lftp RETR of a leading dash" bash -c "lftp -e 'set cmd:fail-exit yes; get -- -leading-dash.txt -o $work/dash-$kind.txt; bye' '$URL' && cmp $work/dash-$kind.txt $root/-leading-dash.txt"
    check "$kind throttled RETR takes >= 2 s" elapsed_at_least 2 curl -s -o "$work/big-$kind" "$URL/big/random.bin"
    check "$kind throttled RETR is complete" cmp "$work/big-$kind" "$root/big/random.bin"
    head -c 1000000 "$root/big/random.bin" >"$work/part"
    check "$kind REST resume" bash -c "curl -s -C - -o $work/part '$URL/big/random.bin' && cmp $work/part $root/big/random.bin"
    check "$kind log has RETR" bash -c "'$S' commands '$LOG' | grep -qx 'RETR random.bin\|RETR big/random.bin'"
    check "$kind log has REST 1000000" bash -c "'$S' commands '$LOG' | grep -qx 'REST 1000000'"
    check "$kind log hides the password" bash -c "! grep -q pw-check '$LOG' && '$S' commands '$LOG' | grep -qx 'PASS \*\*\*\*'"
done

start pyftpdlib 127.0.0.4 bob --drop-after 1000000 --drop-count 1 --no-epsv-mlsd || die "pyftpdlib did not start"
rm -f "$work/drop"
check "drop-after cuts the first RETR at 1000000 bytes" bash -c "! curl -s -o $work/drop '$URL/big/random.bin'; [ \$(stat -c %s $work/drop) = 1000000 ]"
check "the second RETR (resumed) completes" bash -c "curl -s -C - -o $work/drop '$URL/big/random.bin' && cmp $work/drop $work/root-pyftpdlib/big/random.bin"
check "no-epsv-mlsd: EPSV refused, PASV used" bash -c "grep -q 'REPLY 500 Command \"EPSV\" not understood' '$LOG' && '$S' commands '$LOG' | grep -qx PASV"
check "no-epsv-mlsd: MLST refused" bash -c "! curl -s -Q 'MLST zero.bin' '$URL/' && grep -q 'REPLY 500 Command \"MLST\" not understood' '$LOG'"

if [ $fails = 0 ]; then echo "check-servers.sh: all checks passed"; else echo "check-servers.sh: $fails checks failed"; fi
[ $fails = 0 ]
