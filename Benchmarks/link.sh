#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 20's benchmark: ftpsync next to lftp and rclone over a link with a round trip, through
# ../shared/netsim/latency_proxy.py (a relay on loopback in front of vsftpd, its passive ports
# relayed too). As root, on a fresh Debian 12:
#
#   Benchmarks/link.sh [--rtts 5,20,80] [--runs N] [--only small,push,noop,large] [--work DIR] [--keep]
#
# Workloads, at each round trip (--rtts, milliseconds):
#   small  pull of 300 files of 16 KiB in 6 folders, 4 connections
#          (ftpsync pull --parallel 4; lftp mirror --parallel=4; rclone copy --transfers 4 --checkers 4)
#   push   the same 300 files pushed to an empty folder, 4 connections
#          (ftpsync push --parallel 4; lftp mirror -R --parallel=4; rclone copy --transfers 4)
#   noop   pull of the same tree, already in sync (after one untimed full copy per tool)
#   large  one 64 MiB file, the relay capping each connection at 40 Mbit/s
#          (ftpsync pull --segments 4 --parallel 4; lftp pget -n 4; rclone --multi-thread-streams 4)
# Each tool runs --runs times (default 3); the median wall time is reported, with the fastest and
# slowest, and every result is compared with the source (diff -r, cmp): a difference stops the
# script. The files are a day old (no tool asks for the precise times of a minute still open).
#
# Prints a markdown table (round trip, workload, tool, median/min/max wall seconds, ftpsync /
# lftp, the physical floor) and writes WORK/link.csv for Benchmarks/link-plot.py.
# FTPSYNC_BIN=path skips the release build; BENCH_NO_INSTALL=1 skips installing the peers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=Benchmarks/Support/ftp-session.sh
. "$root/Benchmarks/Support/ftp-session.sh"
rtts=5,20,80 runs=3 only=small,push,noop,large work=/tmp/ftpsync-link keep=0
usage="usage: Benchmarks/link.sh [--rtts 5,20,80] [--runs N] [--only small,push,noop,large] [--work DIR] [--keep]"
while [ $# -gt 0 ]; do
    case $1 in
    --rtts) rtts=$2; shift ;;
    --runs) runs=$2; shift ;;
    --only) only=$2; shift ;;
    --work) work=$2; shift ;;
    --keep) keep=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "link.sh needs root (packages, and vsftpd logs in a system user)" >&2; exit 1; }
if [ -e "$work" ] && [ ! -e "$work/.ftpsync-bench" ] && [ -n "$(ls -A "$work" 2>/dev/null)" ]; then
    echo "link.sh: $work exists and was not made by link.sh; give --work an empty or new folder" >&2
    exit 2
fi
relay_script=${FTPSYNC_LATENCY_PROXY:-$root/../shared/netsim/latency_proxy.py}
[ -f "$relay_script" ] || relay_script=/work/shared/netsim/latency_proxy.py
[ -f "$relay_script" ] || { echo "link.sh: no latency_proxy.py (set FTPSYNC_LATENCY_PROXY)" >&2; exit 2; }
server_addr=127.0.57.1 relay_addr=127.0.57.2 port=2121 pasv=46200-46263 user=benchftp pass=bench-pw-8
small_files=300 small_folders=6 small_bytes=16384 large_mib=64 large_mbit=40
log() { echo "== $*" >&2; }
wants() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

if [ -z "${BENCH_NO_INSTALL:-}" ]; then
    log "installing peers and build dependencies"
    FTPSYNC_SKIP_EXTRA_SERVERS=1 "$root/scripts/install-deps.sh" >/dev/null
    missing=()
    for p in lftp rclone time; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
    if [ ${#missing[@]} -gt 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >/dev/null ||
            { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >/dev/null; }
    fi
fi
if [ -z "${FTPSYNC_BIN:-}" ]; then
    log "building ftpsync (release)"
    (cd "$root" && swift build -c release --product ftpsync >/dev/null)
    FTPSYNC_BIN=$root/.build/release/ftpsync
fi

server="" relay=""
stop_relay() { [ -z "$relay" ] || { kill "$relay" 2>/dev/null || true; wait "$relay" 2>/dev/null || true; relay=""; }; }
cleanup() {
    stop_relay
    [ -z "$server" ] || "$root/scripts/ftp-server.sh" stop "$server" >/dev/null 2>&1 || true
    [ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$work" && mkdir -p "$work/served/small" "$work/served/large" "$work/served/push" "$work/out" && touch "$work/.ftpsync-bench"
chmod 755 "$work" "$work/served"

log "generating data in $work"
/usr/bin/python3 - "$work" "$small_files" "$small_folders" "$small_bytes" "$large_mib" <<'PY'
import os, sys, time
work, files, folders, size, large = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
old = time.time() - 86400
for i in range(files):
    folder = f"{work}/served/small/d{i % folders}"
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/f{i:04d}.bin", "wb") as out:
        out.write(os.urandom(size))
    os.utime(f"{folder}/f{i:04d}.bin", (old, old))
with open(f"{work}/served/large/big.bin", "wb") as out:
    for _ in range(large):
        out.write(os.urandom(1 << 20))
os.utime(f"{work}/served/large/big.bin", (old, old))
PY
cp -a "$work/served/small" "$work/pushsrc"

server=$("$root/scripts/ftp-server.sh" start vsftpd "$work/served" "$server_addr" "$port" "$user" "$pass" \
    --pasv-ports "$pasv" --masquerade "$relay_addr" --log "$work/commands.log" 2>/dev/null)
# start_relay RTT [MBIT]: the relay in front of the server, its control and passive ports.
start_relay() {
    stop_relay
    local rate=()
    [ -z "${2:-}" ] || rate=(--rate-mbit "$2")
    rm -f "$work/relay.ready"
    /usr/bin/python3 "$relay_script" --listen "$relay_addr" --target "$server_addr" --ports "$port,$pasv" \
        --rtt-ms "$1" "${rate[@]}" --portfile "$work/relay.ready" --seconds 7200 >"$work/relay.log" 2>&1 &
    relay=$!
    for _ in $(seq 100); do [ -e "$work/relay.ready" ] && return 0; sleep 0.1; done
    echo "link.sh: the relay did not start (see $work/relay.log)" >&2
    exit 1
}

export RCLONE_CONFIG=/dev/null
rremote=":ftp,host=$relay_addr,port=$port,user=$user,pass=$(rclone obscure "$pass"),concurrency=8:"
bench_lftp_script "$work/lftp_run" "$relay_addr" "$port" "$user" "$pass"
config() { bench_config "$work/$1.yaml" "$relay_addr" "$port" "$user" "$pass" "$2" "$3"; }   # config NAME REMOTE LOCAL

rows=()
csv="$work/link.csv"
echo "rtt_ms,workload,tool,median_s,min_s,max_s,floor_s" >"$csv"
declare -A lftp_median
prep() { :; }
# measure RTT WORKLOAD FLOOR TOOL CMD...: the median of $runs wall times, `prep` before each.
measure() {
    local rtt=$1 workload=$2 floor=$3 tool=$4 times=()
    shift 4
    for _ in $(seq 1 "$runs"); do
        prep
        if ! /usr/bin/time -f '%e' -o "$work/time.txt" "$@" >"$work/cmd.out" 2>&1; then
            echo "$workload / $tool at $rtt ms failed:" >&2; tail -5 "$work/cmd.out" >&2; exit 1
        fi
        times+=("$(tail -n 1 "$work/time.txt")")
    done
    read -r median low high < <(printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }')
    local ratio=""
    if [ "$tool" = lftp ]; then lftp_median[$workload]=$median; fi
    if [ "$tool" = ftpsync ] && [ -n "${lftp_median[$workload]:-}" ]; then
        ratio=$(awk -v a="$median" -v p="${lftp_median[$workload]}" 'BEGIN { printf "%.2f", a / p }')
    fi
    rows+=("| $rtt | $workload | $tool | $median | $low | $high | $ratio | $floor |")
    echo "$rtt,\"$workload\",$tool,$median,$low,$high,$floor" >>"$csv"
    log "$rtt ms, $workload / $tool: median $median s ($low-$high) ${ratio:+ratio $ratio}"
}
same() { diff -r "$1" "$2" >/dev/null || { echo "$3: result differs from the source" >&2; exit 1; }; }
# floor FILES RTT_MS: files x one round trip / 4 connections, plus a login (2 round trips), seconds
floor() { awk -v f="$1" -v r="$2" 'BEGIN { printf "%.2f", (f / 4 + 2) * r / 1000 }'; }

for rtt in ${rtts//,/ }; do
    start_relay "$rtt"
    if wants small; then
        w="pull 300 × 16 KiB"
        prep() { rm -rf "$work/out" && mkdir -p "$work/out"; }
        config small /small "$work/out"
        f=$(floor "$small_files" "$rtt")
        measure "$rtt" "$w" "$f" lftp "$work/lftp_run" "mirror --parallel=4 /small $work/out/lftp"
        same "$work/served/small" "$work/out/lftp" lftp
        measure "$rtt" "$w" "$f" rclone rclone copy --transfers 4 --checkers 4 "$rremote/small" "$work/out/rclone"
        same "$work/served/small" "$work/out/rclone" rclone
        measure "$rtt" "$w" "$f" ftpsync "$FTPSYNC_BIN" pull "$work/small.yaml" -q --parallel 4
        same "$work/served/small" "$work/out/b" ftpsync
    fi
    if wants push; then
        w="push 300 × 16 KiB"
        # ftpsync pushes its tree (pushroot/b, a copy of the source) to /push/ftpsync.
        bench_config "$work/push.yaml" "$relay_addr" "$port" "$user" "$pass" /push/ftpsync "$work/pushroot"
        rm -rf "$work/pushroot" && mkdir -p "$work/pushroot" && cp -a "$work/pushsrc" "$work/pushroot/b"
        prep() {
            rm -rf "$work/served/push" "$work/pushroot/.ftpsync"
            mkdir -p "$work/served/push/ftpsync" && chmod -R 777 "$work/served/push"
        }
        f=$(floor "$small_files" "$rtt")
        measure "$rtt" "$w" "$f" lftp "$work/lftp_run" "mirror -R --parallel=4 $work/pushsrc /push/lftp"
        same "$work/pushsrc" "$work/served/push/lftp" lftp
        measure "$rtt" "$w" "$f" rclone rclone copy --transfers 4 "$work/pushsrc" "$rremote/push/rclone"
        same "$work/pushsrc" "$work/served/push/rclone" rclone
        measure "$rtt" "$w" "$f" ftpsync "$FTPSYNC_BIN" push "$work/push.yaml" -q --parallel 4
        same "$work/pushsrc" "$work/served/push/ftpsync" ftpsync
    fi
    if wants noop; then
        w="no-op pull of 300 files"
        prep() { :; }
        config noop /small "$work/out"
        rm -rf "$work/out" && mkdir -p "$work/out"
        "$work/lftp_run" "mirror --parallel=4 /small $work/out/lftp" >/dev/null 2>&1
        rclone copy --transfers 4 "$rremote/small" "$work/out/rclone" >/dev/null 2>&1
        "$FTPSYNC_BIN" pull "$work/noop.yaml" -q --parallel 4
        f=$(floor "$small_folders" "$rtt")
        measure "$rtt" "$w" "$f" lftp "$work/lftp_run" "mirror --parallel=4 /small $work/out/lftp"
        same "$work/served/small" "$work/out/lftp" lftp
        measure "$rtt" "$w" "$f" rclone rclone copy --transfers 4 --checkers 4 "$rremote/small" "$work/out/rclone"
        same "$work/served/small" "$work/out/rclone" rclone
        measure "$rtt" "$w" "$f" ftpsync "$FTPSYNC_BIN" pull "$work/noop.yaml" -q --parallel 4
        same "$work/served/small" "$work/out/b" ftpsync
    fi
    if wants large; then
        start_relay "$rtt" "$large_mbit"
        w="64 MiB at 40 Mbit/s per connection, 4 connections"
        prep() { rm -rf "$work/out" && mkdir -p "$work/out"; }
        config large /large "$work/out"
        f=$(awk -v m="$large_mib" -v r="$large_mbit" 'BEGIN { printf "%.2f", m * 1048576 * 8 / (4 * r * 1e6) }')
        measure "$rtt" "$w" "$f" lftp "$work/lftp_run" "pget -n 4 /large/big.bin -o $work/out/lftp.bin"
        cmp "$work/served/large/big.bin" "$work/out/lftp.bin"
        measure "$rtt" "$w" "$f" rclone rclone copy --multi-thread-streams 4 --multi-thread-cutoff 32M \
            "$rremote/large" "$work/out/rclone"
        cmp "$work/served/large/big.bin" "$work/out/rclone/big.bin"
        measure "$rtt" "$w" "$f" ftpsync "$FTPSYNC_BIN" pull "$work/large.yaml" -q --parallel 4 --segments 4
        cmp "$work/served/large/big.bin" "$work/out/b/big.bin"
    fi
done

echo
echo "Benchmarks/link.sh (median of $runs) — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, vsftpd behind latency_proxy.py"
echo
echo "| round trip ms | workload | tool | median s | fastest s | slowest s | ftpsync / lftp | floor s |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "(CSV for Benchmarks/link-plot.py: $csv$([ "$keep" = 1 ] || echo ', deleted at the end: run with --keep to plot'))"
