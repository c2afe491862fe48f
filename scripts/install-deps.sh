#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Install what building and testing ftpsync needs on Debian 12, then unpack the
# vsftpd test server into $FTPSYNC_LAB/opt/vsftpd (and, through scripts/install-servers.sh,
# proftpd, pure-ftpd and a busybox built with ftpd).
#
#   scripts/install-deps.sh
#
# Idempotent: packages are checked with dpkg-query first, so on a prepared machine
# the script does no network access and needs no root. Missing packages are
# installed with apt-get (as root); `apt-get update` runs only when the package
# lists are empty, lack a candidate, or an install with the current lists fails.
# No package may start a daemon meanwhile (a temporary /usr/sbin/policy-rc.d that
# answers 101 is in place during the install and removed afterwards).
# vsftpd is never dpkg-installed: its .deb is fetched with `apt-get download` and
# unpacked with `dpkg-deb -x` (no maintainer scripts, no service on port 21).
# apt output goes to $FTPSYNC_LAB/logs/install-deps.log. Exit status 0 when
# everything is in place, 1 with a message on stderr otherwise.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

# Build: C libraries reached by the system-library targets, and pkg-config.
BUILD_PKGS=(libxxhash-dev xxhash libyaml-dev libssl-dev libsqlite3-dev pkg-config)
# Tests and demo: pyftpdlib server, clients to check servers by hand, tools the scripts use.
TEST_PKGS=(python3 python3-pyftpdlib python3-openssl lftp curl openssl procps util-linux passwd libfaketime prometheus-node-exporter prometheus jq shellcheck systemd microsocks tinyproxy-bin)
# Shared libraries the unpacked vsftpd binary links against, and its PAM modules.
VSFTPD_LIBS=(libcap2 libpam0g libpam-modules libssl3 libwrap0)

VSFTPD_DIR=$FTPSYNC_LAB/opt/vsftpd
VSFTPD_MARK=$VSFTPD_DIR/.unpacked-from

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 0
fi

LOG=$FTPSYNC_LAB/logs/install-deps.log

# Swift packages: SwiftPM resolves them from the local mirrors when GitHub is out of reach.
"$SCRIPTS_DIR/use-mirrors.sh"

is_installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# check -> sets missing (packages) and need_vsftpd (0/1)
check() {
    local p
    missing=()
    for p in "${BUILD_PKGS[@]}" "${TEST_PKGS[@]}" "${VSFTPD_LIBS[@]}"; do
        is_installed "$p" || missing+=("$p")
    done
    need_vsftpd=0
    if [ ! -s "$VSFTPD_MARK" ] || [ ! -x "$VSFTPD_DIR/usr/sbin/vsftpd" ]; then need_vsftpd=1; fi
}

# The other test servers (proftpd, pure-ftpd, busybox ftpd): scripts/install-servers.sh,
# idempotent like this script.
# FTPSYNC_SKIP_EXTRA_SERVERS=1 skips them (the demo and the benchmark need only vsftpd and
# pyftpdlib; building busybox takes about a minute).
extra_servers() {
    [ "${FTPSYNC_SKIP_EXTRA_SERVERS:-0}" = 1 ] && return 0
    "$(dirname "$0")/install-servers.sh" || die "install-servers.sh failed"
}

check
if [ ${#missing[@]} -eq 0 ] && [ $need_vsftpd = 0 ]; then
    extra_servers
    exit 0
fi
[ "$(id -u)" = 0 ] || die "run as root: missing ${missing[*]:-}$([ $need_vsftpd = 1 ] && echo ' vsftpd (unpacked)')"
lab_dirs
# One run at a time (integration tests may start several servers at once);
# whoever waited may find the work done.
exec 9>>"$FTPSYNC_LAB/cache/install-deps.lock" || die "cannot open the lock in $FTPSYNC_LAB/cache"
flock 9
check
if [ ${#missing[@]} -eq 0 ] && [ $need_vsftpd = 0 ]; then
    extra_servers
    exit 0
fi
command -v apt-get >/dev/null || die "apt-get not found: this script targets Debian 12"

updated=0
apt_update() {
    [ $updated = 1 ] && return 0
    say "apt-get update (log: $LOG)"
    apt-get update -q >>"$LOG" 2>&1 || die "apt-get update failed, see $LOG"
    updated=1
}

# has_candidate PKG -> the current package lists know an installable version
has_candidate() {
    local c
    c=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
    [ -n "$c" ] && [ "$c" != "(none)" ]
}

APT_OPTS=(-y -q -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300 -o APT::Sandbox::User=root)

if [ ${#missing[@]} -gt 0 ]; then
    for p in "${missing[@]}"; do
        has_candidate "$p" || { apt_update; break; }
    done
    policy_made=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\n# ftpsync install-deps.sh: no service starts during install\nexit 101\n' \
            >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        policy_made=1
        trap 'rm -f /usr/sbin/policy-rc.d' EXIT
    fi
    say "installing ${missing[*]} (log: $LOG)"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install "${APT_OPTS[@]}" --no-install-recommends "${missing[@]}" >>"$LOG" 2>&1; then
        if [ $updated = 0 ]; then
            apt_update
            apt-get install "${APT_OPTS[@]}" --no-install-recommends "${missing[@]}" >>"$LOG" 2>&1 ||
                { tail -n 15 "$LOG" >&2; die "apt-get install ${missing[*]} failed, see $LOG"; }
        else
            tail -n 15 "$LOG" >&2
            die "apt-get install ${missing[*]} failed, see $LOG"
        fi
    fi
    if [ $policy_made = 1 ]; then
        rm -f /usr/sbin/policy-rc.d
        trap - EXIT
    fi
fi

if [ $need_vsftpd = 1 ]; then
    debs=$FTPSYNC_LAB/cache/debs
    mkdir -p "$debs"
    deb=$(find "$debs" -maxdepth 1 -name 'vsftpd_*.deb' | sort | tail -n 1)
    if [ -z "$deb" ]; then
        say "downloading vsftpd .deb into $debs (log: $LOG)"
        has_candidate vsftpd || apt_update
        if ! (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root vsftpd >>"$LOG" 2>&1); then
            apt_update
            (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root vsftpd >>"$LOG" 2>&1) ||
                die "apt-get download vsftpd failed, see $LOG"
        fi
        deb=$(find "$debs" -maxdepth 1 -name 'vsftpd_*.deb' | sort | tail -n 1)
        [ -n "$deb" ] || die "apt-get download vsftpd left no .deb in $debs"
    fi
    say "unpacking $(basename "$deb") into $VSFTPD_DIR"
    rm -rf "$VSFTPD_DIR.tmp"
    mkdir -p "$VSFTPD_DIR.tmp"
    dpkg-deb -x "$deb" "$VSFTPD_DIR.tmp" || die "dpkg-deb -x $deb failed"
    basename "$deb" >"$VSFTPD_DIR.tmp/.unpacked-from"
    rm -rf "$VSFTPD_DIR"
    mv "$VSFTPD_DIR.tmp" "$VSFTPD_DIR"
    libs_missing=$(ldd "$VSFTPD_DIR/usr/sbin/vsftpd" 2>&1 | grep 'not found' | tr -s ' \t' ' ' || true)
    [ -z "$libs_missing" ] || die "the unpacked vsftpd lacks libraries:$libs_missing"
fi
extra_servers
say "dependencies ready"
