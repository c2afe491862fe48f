#!/usr/bin/env bash
# Issue 2's figures: wall time of pulling 1,000 files of 4 KB, and one 500 MB file, from
# vsftpd on loopback with ftpsync, next to `lftp -e 'mirror …'` and curl on the same data.
#
#   Benchmarks/pull-vsftpd.sh [WORKDIR]      (default /tmp/ftpsync-bench-pull)
#
# Prints a table (seconds, best of 3). Needs root (vsftpd logs in a system user).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/ftpsync-bench-pull}
addr=127.0.0.90
"$root/scripts/install-deps.sh" >/dev/null
(cd "$root" && swift build -c release --product ftpsync >/dev/null)
bin="$root/.build/release/ftpsync"

rm -rf "$work" && mkdir -p "$work/served/small" "$work/served/large"
chmod 755 "$work" "$work/served"
for d in $(seq 0 9); do
    mkdir -p "$work/served/small/d$d"
    for f in $(seq 0 99); do head -c 4096 /dev/urandom >"$work/served/small/d$d/f$f.bin"; done
done
head -c 500000000 /dev/urandom >"$work/served/large/big.bin"

read -r pid port < <("$root/scripts/ftp-server.sh" start vsftpd "$work/served" "$addr" 0 benchuser benchpw 2>/dev/null)
trap '"$root/scripts/ftp-server.sh" stop "$pid" >/dev/null 2>&1' EXIT

best() {   # best CMD...: best wall time of 3 runs, each after PREP (a function) runs
    local b=999999 t s e
    for _ in 1 2 3; do
        prep
        s=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s.%N)
        b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; print (t < b ? t : b) }')
    done
    printf '%.3f' "$b"
}

config() {   # config DIR REMOTE
    printf 'local: %s\ndevices:\n  - name: bench\n    host: %s\n    port: %s\n    user: benchuser\n    password: benchpw\n    remote: %s\n    connections: 1\n' \
        "$1" "$addr" "$port" "$2" >"$1.yaml"
}

prep() { rm -rf "$work/out"; mkdir -p "$work/out"; config "$work/out/m" /small; }
small_ftpsync=$(best "$bin" pull "$work/out/m.yaml" -q)
small_lftp=$(best lftp -u benchuser,benchpw -p "$port" -e "mirror /small $work/out/lftp; quit" "$addr")
prep() { rm -rf "$work/out"; mkdir -p "$work/out"; config "$work/out/m" /large; }
large_ftpsync=$(best "$bin" pull "$work/out/m.yaml" -q)
large_curl=$(best curl -s -o "$work/out/big.bin" "ftp://benchuser:benchpw@$addr:$port/large/big.bin")
large_lftp=$(best lftp -u benchuser,benchpw -p "$port" -e "mirror /large $work/out/lftp; quit" "$addr")

printf '| workload (vsftpd, loopback) | ftpsync | lftp mirror | curl |\n|---|---|---|---|\n'
printf '| 1,000 files of 4 KB | %s s | %s s | — |\n' "$small_ftpsync" "$small_lftp"
printf '| one 500 MB file | %s s | %s s | %s s |\n' "$large_ftpsync" "$large_lftp" "$large_curl"
