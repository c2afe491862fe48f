#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 5's figure: wall time of one `ftpsync pull` from 20 devices of 200 small files each
# (2 KB), with `--jobs 8` against `--jobs 1` (each device with its default 2 connections).
# Every device is its own pyftpdlib server on its own loopback address (127.0.1.40-59),
# answering each command after LATENCY ms (default 2: a camera on Wi-Fi; 0 = as fast as
# loopback and two cores allow, where the run is bound by CPU, not by waiting).
#
#   Benchmarks/fleet.sh [WORKDIR]        (default /tmp/ftpsync-bench-fleet)
#   FTPSYNC_BIN=path/to/ftpsync Benchmarks/fleet.sh   (skip the release build)
#   LATENCY=0 Benchmarks/fleet.sh
#
# Prints the best of 3 wall times of each and the speed-up.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/ftpsync-bench-fleet}
devices=20
files=200
latency=${LATENCY:-2}
if [ -z "${FTPSYNC_BIN:-}" ]; then
    (cd "$root" && swift build -c release --product ftpsync >/dev/null)
    FTPSYNC_BIN="$root/.build/release/ftpsync"
fi

rm -rf "$work" && mkdir -p "$work/served"
pids=()
cleanup() { [ ${#pids[@]} -eq 0 ] || "$root/scripts/ftp-server.sh" stop "${pids[@]}" >/dev/null 2>&1 || true; }
trap cleanup EXIT
config="$work/fleet.yaml"
printf 'local: %s/out\ndevices:\n' "$work" >"$config"
chmod 600 "$config"
for d in $(seq 0 $((devices - 1))); do
    served="$work/served/d$d"
    mkdir -p "$served/DCIM"
    for f in $(seq 0 $((files - 1))); do head -c 2048 /dev/urandom >"$served/DCIM/f$f.jpg"; done
    addr="127.0.1.$((40 + d))"
    read -r pid port < <("$root/scripts/ftp-server.sh" start pyftpdlib "$served" "$addr" 0 bench benchpw \
        --log "$work/d$d.log" --latency "$latency" 2>/dev/null)
    pids+=("$pid")
    printf '  - {name: d%s, host: %s, port: %s, user: bench, password: benchpw}\n' "$d" "$addr" "$port" >>"$config"
done

best() {   # best JOBS: best wall time of 3 full pulls into an empty tree
    local b=999999 s e
    for _ in 1 2 3; do
        rm -rf "$work/out"
        s=$(date +%s.%N)
        "$FTPSYNC_BIN" pull "$config" -q --jobs "$1" >"$work/run.txt" 2>&1 || {
            echo "pull --jobs $1 failed:" >&2
            grep -v "no connection was left" "$work/run.txt" | head -20 >&2
            exit 1
        }
        e=$(date +%s.%N)
        b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; print (t < b ? t : b) }')
    done
    printf '%.3f' "$b"
}

one=$(best 1)
eight=$(best 8)
for d in $(seq 0 $((devices - 1))); do
    diff -r "$work/served/d$d" "$work/out/d$d" >/dev/null || { echo "d$d: mirror differs" >&2; exit 1; }
done
printf '%d devices x %d files of 2 KB (pyftpdlib, loopback, %s ms per reply), best of 3:\n' \
    "$devices" "$files" "$latency"
printf '  --jobs 1  %8s s\n  --jobs 8  %8s s\n  speed-up  %8s x\n' "$one" "$eight" \
    "$(awk -v a="$one" -v b="$eight" 'BEGIN { printf "%.2f", a / b }')"
