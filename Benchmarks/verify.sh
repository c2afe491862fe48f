#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 21's benchmark: what checking each transfer with the server's hash costs. ftpsync pulls
# and pushes the same data from ProFTPD with mod_digest (HASH, XSHA256, ...) with `verify: auto`
# and with `verify: off`, on loopback and through ../shared/netsim/latency_proxy.py with a round
# trip. As root, on a fresh Debian 12:
#
#   Benchmarks/verify.sh [--runs N] [--rtt MS] [--large-mib N] [--work DIR] [--keep]
#
# Workloads, each with verify auto and off:
#   small pull   300 files of 16 KiB in 6 folders, 4 connections, loopback
#   small push   the same files to an empty folder, 4 connections, loopback
#   large pull   one file of --large-mib MiB (default 512), loopback
#   large push   the same file, loopback
#   small pull   the 300 files again through the relay (--rtt, default 20 ms): the digests are
#                asked behind each transfer (pipelined), so no round trip is added per file
# Each runs --runs times (default 3); the median wall time is reported with the fastest and
# slowest, and every result is compared with the source (diff -r): a difference stops the script.
# Prints a markdown table: workload, median/min/max seconds with auto and off, auto/off.
# FTPSYNC_BIN=path skips the release build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=Benchmarks/Support/ftp-session.sh
. "$root/Benchmarks/Support/ftp-session.sh"
runs=3 rtt=20 large_mib=512 work=/tmp/ftpsync-verify keep=0
usage="usage: Benchmarks/verify.sh [--runs N] [--rtt MS] [--large-mib N] [--work DIR] [--keep]"
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift ;;
    --rtt) rtt=$2; shift ;;
    --large-mib) large_mib=$2; shift ;;
    --work) work=$2; shift ;;
    --keep) keep=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "verify.sh needs root (the lab's servers)" >&2; exit 1; }
if [ -e "$work" ] && [ ! -e "$work/.ftpsync-bench" ] && [ -n "$(ls -A "$work" 2>/dev/null)" ]; then
    echo "verify.sh: $work exists and was not made by verify.sh; give --work an empty or new folder" >&2
    exit 2
fi
relay_script=${FTPSYNC_LATENCY_PROXY:-$root/../shared/netsim/latency_proxy.py}
[ -f "$relay_script" ] || relay_script=/work/shared/netsim/latency_proxy.py
[ -f "$relay_script" ] || { echo "verify.sh: no latency_proxy.py (set FTPSYNC_LATENCY_PROXY)" >&2; exit 2; }
server_addr=127.0.58.1 relay_addr=127.0.58.2 pasv=46500-46563 user=benchftp pass=bench-pw-9
log() { echo "== $*" >&2; }

if [ -z "${FTPSYNC_BIN:-}" ]; then
    log "building ftpsync (release)"
    (cd "$root" && swift build -c release --product ftpsync >/dev/null)
    FTPSYNC_BIN=$root/.build/release/ftpsync
fi

server="" relay=""
cleanup() {
    [ -z "$relay" ] || { kill "$relay" 2>/dev/null || true; wait "$relay" 2>/dev/null || true; }
    [ -z "$server" ] || "$root/scripts/ftp-server.sh" stop "$server" >/dev/null 2>&1 || true
    [ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$work" && mkdir -p "$work/served/small" "$work/served/large" "$work/served/push" "$work/src" && touch "$work/.ftpsync-bench"
chmod 755 "$work" "$work/served"

log "generating data in $work"
/usr/bin/python3 - "$work" "$large_mib" <<'PY'
import os, sys, time
work, large = sys.argv[1], int(sys.argv[2])
old = time.time() - 86400
for i in range(300):
    folder = f"{work}/served/small/d{i % 6}"
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/f{i:04d}.bin", "wb") as out:
        out.write(os.urandom(16384))
    os.utime(f"{folder}/f{i:04d}.bin", (old, old))
with open(f"{work}/served/large/big.bin", "wb") as out:
    for _ in range(large):
        out.write(os.urandom(1 << 20))
os.utime(f"{work}/served/large/big.bin", (old, old))
PY
mkdir -p "$work/src/small" "$work/src/large"
cp -a "$work/served/small" "$work/src/small/b"
cp -a "$work/served/large" "$work/src/large/b"

read -r server port < <("$root/scripts/ftp-server.sh" start proftpd "$work/served" "$server_addr" 0 "$user" "$pass" \
    --digest --pasv-ports "$pasv" --log "$work/commands.log" 2>/dev/null)
/usr/bin/python3 "$relay_script" --listen "$relay_addr" --target "$server_addr" --ports "$port,$pasv" \
    --rtt-ms "$rtt" --portfile "$work/relay.ready" --seconds 7200 >"$work/relay.log" 2>&1 &
relay=$!
for _ in $(seq 100); do [ -e "$work/relay.ready" ] && break; sleep 0.1; done
[ -e "$work/relay.ready" ] || { echo "verify.sh: the relay did not start (see $work/relay.log)" >&2; exit 1; }

# config NAME ADDR REMOTE LOCAL VERIFY: a one-device configuration with `verify: VERIFY`.
config() {
    bench_config "$work/$1.yaml" "$2" "$port" "$user" "$pass" "$3" "$4"
    printf '    verify: %s\n' "$5" >>"$work/$1.yaml"
}

rows=()
# measure WORKLOAD VERIFY PREP CHECK CMD...: the median, fastest and slowest of $runs wall times
# of CMD, PREP (a shell command) run before each and CHECK after each.
measure() {
    local workload=$1 verify=$2 prep=$3 check=$4 times=()
    shift 4
    for _ in $(seq 1 "$runs"); do
        eval "$prep"
        if ! /usr/bin/time -f '%e' -o "$work/time.txt" "$@" >"$work/cmd.out" 2>&1; then
            echo "$workload with verify: $verify failed:" >&2; tail -5 "$work/cmd.out" >&2; exit 1
        fi
        eval "$check" || { echo "$workload with verify: $verify: the copy differs from the source" >&2; exit 1; }
        times+=("$(tail -n 1 "$work/time.txt")")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'
}

# compare WORKLOAD PREP CHECK CONFIG-BASE COMMAND...: auto and off, one row.
compare() {
    local workload=$1 prep=$2 check=$3 base=$4
    shift 4
    log "$workload"
    local auto off
    auto=$(measure "$workload" auto "$prep" "$check" "$@" "$work/$base-auto.yaml")
    off=$(measure "$workload" off "$prep" "$check" "$@" "$work/$base-off.yaml")
    read -r am alo ahi <<<"$auto"
    read -r om olo ohi <<<"$off"
    rows+=("| $workload | $am ($alo–$ahi) | $om ($olo–$ohi) | $(awk -v a="$am" -v o="$om" 'BEGIN { printf "%.2f", a / o }') |")
}

for v in auto off; do
    config "small-$v" "$server_addr" /small "$work/out-small" "$v"
    config "smallpush-$v" "$server_addr" /push "$work/src/small" "$v"
    config "large-$v" "$server_addr" /large "$work/out-large" "$v"
    config "largepush-$v" "$server_addr" /push "$work/src/large" "$v"
    config "far-$v" "$relay_addr" /small "$work/out-far" "$v"
done

compare "small pull (300 × 16 KiB, 4 connections)" 'rm -rf "$work/out-small"' \
    'diff -r "$work/served/small" "$work/out-small/b" >/dev/null' small "$FTPSYNC_BIN" pull --parallel 4 --no-progress
compare "small push (300 × 16 KiB, 4 connections)" 'rm -rf "$work/served/push"/* "$work/src/small/.ftpsync"' \
    'diff -r "$work/src/small/b" "$work/served/push" >/dev/null' smallpush "$FTPSYNC_BIN" push --parallel 4 --no-progress
compare "large pull ($large_mib MiB)" 'rm -rf "$work/out-large"' \
    'cmp -s "$work/served/large/big.bin" "$work/out-large/b/big.bin"' large "$FTPSYNC_BIN" pull --no-progress
compare "large push ($large_mib MiB)" 'rm -rf "$work/served/push"/* "$work/src/large/.ftpsync"' \
    'cmp -s "$work/src/large/b/big.bin" "$work/served/push/big.bin"' largepush "$FTPSYNC_BIN" push --no-progress
compare "small pull at $rtt ms (300 × 16 KiB, 4 connections)" 'rm -rf "$work/out-far"' \
    'diff -r "$work/served/small" "$work/out-far/b" >/dev/null' far "$FTPSYNC_BIN" pull --parallel 4 --no-progress

echo "| workload | verify: auto, s (min–max) | verify: off, s (min–max) | auto / off |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
