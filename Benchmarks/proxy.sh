#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 22's benchmark: what a proxy hop costs. ftpsync pulls the same small files from a server
# on loopback directly, through microsocks (SOCKS5, with a login) and through tinyproxy (HTTP
# CONNECT, with a login); optionally with ../shared/netsim/latency_proxy.py in front of the
# server (--rtt-ms), so the proxies sit near the client and the round trip lies between them
# and the device (ssh -D on this machine); with --far-proxy the round trip lies between the
# client and the proxies instead (a proxy at the device's site), the direct path still crossing
# it. As root (vsftpd; --kind pyftpdlib needs no root), on a fresh Debian 12:
#
#   Benchmarks/proxy.sh [--runs N] [--files N] [--size BYTES] [--rtt-ms MS [--far-proxy]]
#                       [--kind vsftpd|pyftpdlib] [--work DIR] [--keep]
#
# Defaults: 3 runs, 2,000 files of 4 KiB in 20 folders, no relay, vsftpd. Each path runs --runs
# times from an empty local tree; the median wall time is reported with the fastest and slowest,
# and every copy is compared with the source (diff -r): a difference stops the script. Prints a
# markdown table: path, median seconds (min–max), files per second, median / direct.
# FTPSYNC_BIN=path skips the release build. Needs microsocks and tinyproxy (scripts/install-deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=Benchmarks/Support/ftp-session.sh
. "$root/Benchmarks/Support/ftp-session.sh"
runs=3 files=2000 size=4096 rtt=0 kind=vsftpd work=/tmp/ftpsync-proxy keep=0 far=0
usage="usage: Benchmarks/proxy.sh [--runs N] [--files N] [--size BYTES] [--rtt-ms MS [--far-proxy]] [--kind vsftpd|pyftpdlib] [--work DIR] [--keep]"
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift ;;
    --files) files=$2; shift ;;
    --size) size=$2; shift ;;
    --rtt-ms) rtt=$2; shift ;;
    --kind) kind=$2; shift ;;
    --work) work=$2; shift ;;
    --keep) keep=1 ;;
    --far-proxy) far=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
for n in "$runs" "$files" "$size" "$rtt"; do
    [[ $n =~ ^[0-9]+$ ]] || { echo "$usage" >&2; exit 2; }
done
case $kind in vsftpd | pyftpdlib) ;; *) echo "$usage" >&2; exit 2 ;; esac
[ "$far" = 0 ] || [ "$rtt" != 0 ] || { echo "proxy.sh: --far-proxy needs --rtt-ms" >&2; exit 2; }
[ "$kind" = pyftpdlib ] || [ "$(id -u)" = 0 ] || { echo "proxy.sh: vsftpd needs root (or --kind pyftpdlib)" >&2; exit 1; }
for tool in microsocks tinyproxy; do
    command -v "$tool" >/dev/null || { echo "proxy.sh: no $tool (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
if [ -e "$work" ] && [ ! -e "$work/.ftpsync-bench" ] && [ -n "$(ls -A "$work" 2>/dev/null)" ]; then
    echo "proxy.sh: $work exists and was not made by proxy.sh; give --work an empty or new folder" >&2
    exit 2
fi
relay_script=""
if [ "$rtt" != 0 ]; then
    relay_script=${FTPSYNC_LATENCY_PROXY:-$root/../shared/netsim/latency_proxy.py}
    [ -f "$relay_script" ] || relay_script=/work/shared/netsim/latency_proxy.py
    [ -f "$relay_script" ] || { echo "proxy.sh: no latency_proxy.py (set FTPSYNC_LATENCY_PROXY)" >&2; exit 2; }
fi
# Addresses and ports of this benchmark only (the tests use 127.0.65/66.x and 46500-46599).
server_addr=127.0.59.1 relay_addr=127.0.59.2 socks_addr=127.0.59.3 http_addr=127.0.59.4 bind_addr=127.0.59.5
proxy_relay_addr=127.0.59.6
socks_port=46690 http_port=46691 pasv=46700-46763
user=benchftp pass=bench-pw-22 proxy_user=benchproxy proxy_pass=bench-proxy-pw-22
log() { echo "== $*" >&2; }

if [ -z "${FTPSYNC_BIN:-}" ]; then
    log "building ftpsync (release)"
    (cd "$root" && swift build -c release --product ftpsync >/dev/null)
    FTPSYNC_BIN=$root/.build/release/ftpsync
fi

server="" relay="" proxy_relay="" socks="" http=""
cleanup() {
    local p
    for p in $relay $proxy_relay $socks $http; do kill -9 "$p" 2>/dev/null || true; done
    for p in $relay $proxy_relay $socks $http; do wait "$p" 2>/dev/null || true; done
    [ -z "$server" ] || "$root/scripts/ftp-server.sh" stop "$server" >/dev/null 2>&1 || true
    [ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$work" && mkdir -p "$work/served/b" && touch "$work/.ftpsync-bench"
chmod 755 "$work" "$work/served"

log "generating $files files of $size bytes in $work"
/usr/bin/python3 - "$work/served/b" "$files" "$size" <<'PY'
import os, sys, time
top, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
old = time.time() - 86400
for i in range(count):
    folder = f"{top}/d{i % 20:02d}"
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/f{i:05d}.bin", "wb") as out:
        out.write(os.urandom(size))
    os.utime(f"{folder}/f{i:05d}.bin", (old, old))
PY

# wait_port ADDR PORT NAME: until ADDR:PORT takes a connection (10 s at most)
wait_port() {
    local _
    for _ in $(seq 100); do
        /usr/bin/python3 -c "import socket, sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 1)" \
            "$1" "$2" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "proxy.sh: $3 does not listen on $1:$2 (see $work/*.log)" >&2
    exit 1
}

read -r server port < <("$root/scripts/ftp-server.sh" start "$kind" "$work/served" "$server_addr" 0 "$user" "$pass" \
    --pasv-ports "$pasv" --log "$work/commands.log" 2>/dev/null)
device_addr=$server_addr
if [ "$rtt" != 0 ]; then
    /usr/bin/python3 "$relay_script" --listen "$relay_addr" --target "$server_addr" --ports "$port,$pasv" \
        --rtt-ms "$rtt" --portfile "$work/relay.ready" --seconds 7200 >"$work/relay.log" 2>&1 &
    relay=$!
    for _ in $(seq 100); do [ -e "$work/relay.ready" ] && break; sleep 0.1; done
    [ -e "$work/relay.ready" ] || { echo "proxy.sh: the relay did not start (see $work/relay.log)" >&2; exit 1; }
    device_addr=$relay_addr
fi
microsocks -i "$socks_addr" -p "$socks_port" -b "$bind_addr" -u "$proxy_user" -P "$proxy_pass" \
    >"$work/microsocks.log" 2>&1 &
socks=$!
cat >"$work/tinyproxy.conf" <<EOF
Port $http_port
Listen $http_addr
Bind $bind_addr
BasicAuth $proxy_user $proxy_pass
MaxClients 100
Timeout 60
LogFile "$work/tinyproxy.log"
LogLevel Connect
PidFile "$work/tinyproxy.pid"
EOF
chmod 600 "$work/tinyproxy.conf"
tinyproxy -d -c "$work/tinyproxy.conf" >"$work/tinyproxy.out" 2>&1 &
http=$!
wait_port "$socks_addr" "$socks_port" microsocks
wait_port "$http_addr" "$http_port" tinyproxy
# --far-proxy: the proxies are reached across the round trip (one relay per proxy address),
# and they reach the server directly.
socks_at=$socks_addr http_at=$http_addr proxied_device=$device_addr
if [ "$far" = 1 ]; then
    proxied_device=$server_addr
    for which in socks http; do
        if [ "$which" = socks ]; then at=$socks_addr listen=$proxy_relay_addr p=$socks_port
        else at=$http_addr listen=127.0.59.7 p=$http_port; fi
        /usr/bin/python3 "$relay_script" --listen "$listen" --target "$at" --ports "$p" --rtt-ms "$rtt" \
            --portfile "$work/relay-$which.ready" --seconds 7200 >"$work/relay-$which.log" 2>&1 &
        proxy_relay="$proxy_relay $!"
        for _ in $(seq 100); do [ -e "$work/relay-$which.ready" ] && break; sleep 0.1; done
        [ -e "$work/relay-$which.ready" ] || { echo "proxy.sh: the relay did not start" >&2; exit 1; }
        if [ "$which" = socks ]; then socks_at=$listen; else http_at=$listen; fi
    done
fi

# config NAME [PROXY]: a one-device configuration pulling /b to $work/out-NAME/b
config() {
    local device=$device_addr
    [ -z "${2:-}" ] || device=$proxied_device
    bench_config "$work/$1.yaml" "$device" "$port" "$user" "$pass" /b "$work/out-$1"
    [ -z "${2:-}" ] || printf '    proxy: %s\n' "$2" >>"$work/$1.yaml"
}
config direct
config socks "socks5://$proxy_user:$proxy_pass@$socks_at:$socks_port"
config http "http://$proxy_user:$proxy_pass@$http_at:$http_port"

# measure NAME: "median min max" of $runs pulls of configuration NAME, each from an empty tree
measure() {
    local times=() _
    for _ in $(seq 1 "$runs"); do
        rm -rf "$work/out-$1"
        if ! /usr/bin/time -f '%e' -o "$work/time.txt" "$FTPSYNC_BIN" pull "$work/$1.yaml" --no-progress \
            >"$work/cmd.out" 2>&1; then
            echo "pull $1 failed:" >&2; tail -5 "$work/cmd.out" >&2; exit 1
        fi
        diff -r "$work/served/b" "$work/out-$1/b" >/dev/null ||
            { echo "pull $1: the copy differs from the source" >&2; exit 1; }
        times+=("$(tail -n 1 "$work/time.txt")")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'
}

rows=() direct_median=""
for path in direct socks http; do
    case $path in
    direct) label="direct" ;;
    socks) label="microsocks (SOCKS5)" ;;
    http) label="tinyproxy (HTTP CONNECT)" ;;
    esac
    log "$label"
    read -r median low high <<<"$(measure "$path")"
    # the proxy really carried the pulls (a proxy ignored would look like a free hop)
    case $path in
    socks) grep -q "connected to" "$work/microsocks.log" || { echo "proxy.sh: microsocks carried nothing" >&2; exit 1; } ;;
    http) grep -q "Established connection" "$work/tinyproxy.log" || { echo "proxy.sh: tinyproxy carried nothing" >&2; exit 1; } ;;
    esac
    [ -n "$direct_median" ] || direct_median=$median
    rate=$(awk -v n="$files" -v t="$median" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
    ratio=$(awk -v a="$median" -v d="$direct_median" 'BEGIN { printf "%.2f", (d > 0 ? a / d : 0) }')
    rows+=("| $label | $median ($low–$high) | $rate | $ratio |")
done

link="loopback"
[ "$rtt" = 0 ] || link="$rtt ms round trip (latency_proxy.py) between the proxies and the server"
[ "$far" = 0 ] || link="$rtt ms round trip (latency_proxy.py) between ftpsync and the proxies (direct: and the server)"
echo "ftpsync pull of $files files of $size bytes from $kind, $link; median of $runs runs"
echo
echo "| path | wall time, s (min–max) | files/s | / direct |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
