#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 6: a TLS pull of one 500 MB file by `ftpsync pull` against `curl --ssl-reqd` from the
# same server (vsftpd, explicit FTPS, require_ssl_reuse=YES, self-signed certificate pinned
# for ftpsync and given to curl as its CA). Both write the file to disk; best of RUNS each.
# Usage: Benchmarks/tls-pull.sh [MEGABYTES] [RUNS] [KIND] [TLS_MAX]
#        (defaults 500, 3, vsftpd, 1.3; KIND pyftpdlib works too). Needs root for vsftpd.
# Uses the release build (.build/release/ftpsync; built when missing) unless FTPSYNC_BIN is set.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
megabytes=${1:-500}
runs=${2:-3}
kind=${3:-vsftpd}
tls_max=${4:-1.3}
addr=127.0.0.50
bin=${FTPSYNC_BIN:-$root/.build/release/ftpsync}
if [ ! -x "$bin" ]; then (cd "$root" && swift build -c release --product ftpsync >&2); fi

work=$(mktemp -d /tmp/ftpsync-bench-tls.XXXXXX)
chmod 755 "$work"
pid=""
cleanup() {
    [ -z "$pid" ] || "$root/scripts/ftp-server.sh" stop "$pid" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/served"
head -c $((megabytes * 1000000)) /dev/urandom >"$work/served/big.bin"
user=benchtls
pass=bench-pw-6
read -r pid port < <("$root/scripts/ftp-server.sh" start "$kind" "$work/served" "$addr" 0 "$user" "$pass" \
    --tls explicit --tls-max "$tls_max")
lab=${FTPSYNC_LAB:-/tmp/ftpsync-lab}
info=$lab/run/$kind-$addr-$port/info
fingerprint=$(sed -n 's/^FINGERPRINT=//p' "$info")
cert=$(sed -n 's/^CERT=//p' "$info")

cat >"$work/device.yaml" <<YAML
local: $work/mirror
devices:
  - name: cam
    host: $addr
    port: $port
    user: $user
    password: $pass
    tls: explicit
    fingerprint: "$fingerprint"
YAML

now() { date +%s.%N; }
best() { sort -n | head -n 1; }
ours=()
theirs=()
for _ in $(seq 1 "$runs"); do
    rm -rf "$work/mirror" "$work/curl.bin"
    sync
    start=$(now)
    "$bin" pull "$work/device.yaml" -q || { echo "ftpsync pull failed" >&2; exit 1; }
    ours+=("$(printf '%.3f' "$(echo "$(now) - $start" | bc)")")
    cmp -s "$work/served/big.bin" "$work/mirror/cam/big.bin" || { echo "ftpsync: file differs" >&2; exit 1; }

    rm -rf "$work/mirror"
    sync
    start=$(now)
    curl -sS --ssl-reqd --cacert "$cert" -o "$work/curl.bin" "ftp://$user:$pass@$addr:$port/big.bin" || {
        echo "curl failed (pyftpdlib 1.5.7 resets a data connection whose TLS starts before RETR, as curl's does)" >&2
        exit 1
    }
    theirs+=("$(printf '%.3f' "$(echo "$(now) - $start" | bc)")")
    cmp -s "$work/served/big.bin" "$work/curl.bin" || { echo "curl: file differs" >&2; exit 1; }
done
version=$("$bin" check "$work/device.yaml" | sed -n 's/^ *TLS: *//p')
echo "server: $kind explicit FTPS ($version), ${megabytes} MB, best of $runs"
echo "ftpsync pull  : $(printf '%s\n' "${ours[@]}" | best) s   (all: ${ours[*]})"
echo "curl --ssl-reqd: $(printf '%s\n' "${theirs[@]}" | best) s   (all: ${theirs[*]})"
