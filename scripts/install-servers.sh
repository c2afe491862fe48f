#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Make the extra test servers of the lab runnable under $FTPSYNC_LAB/opt, without installing
# any of them as a system service:
#
#   scripts/install-servers.sh [proftpd] [pure-ftpd] [busybox]     (no argument: all three)
#
# proftpd and pure-ftpd: their .debs are fetched with `apt-get download` and unpacked with
# `dpkg-deb -x` (vsftpd, proftpd and pure-ftpd all Provide and Conflict with ftp-server, so
# at most one could be dpkg-installed; unpacking runs no maintainer script and starts no
# daemon). Their shared libraries are apt-get installed. proftpd-mod-crypto is unpacked too:
# it depends on proftpd-core (=), so it cannot be installed alone.
# busybox: Debian's busybox is built without the ftpd and tcpsvd applets, so it is built
# from the Debian source package (apt-get source through a private deb-src list; the
# system's apt configuration is not touched) with FTPD, its write and authentication
# features, TCPSVD, and no limit on the characters `ls` prints (LAST_SUPPORTED_WCHAR=0).
# Idempotent: what is in place is not fetched again. Logs: $FTPSYNC_LAB/logs/install-servers.log.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 0
fi

LOG=$FTPSYNC_LAB/logs/install-servers.log
OPT=$FTPSYNC_LAB/opt
BUSYBOX_BUILD_ID="busybox-1.35-ftpd-tcpsvd-wchar0-v1"

PROFTPD_LIBS=(libacl1 libcap2 libcrypt1 libhiredis0.14 libidn2-0 libmemcached11 libmemcachedutil2
    libncursesw6 libpam0g libpcre2-8-0 libpcre2-posix3 libssl3 libtinfo6 zlib1g libsodium23 openssl)
PURE_FTPD_LIBS=(libcap2 libcrypt1 libpam0g libsodium23 libssl3 openssl)
BUSYBOX_BUILD=(gcc make libc6-dev dpkg-dev bzip2 xz-utils patch)

is_installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

# apt_packages PKG... -> install the missing ones (no service may start meanwhile)
apt_packages() {
    local missing=() p
    for p in "$@"; do is_installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -gt 0 ] || return 0
    [ "$(id -u)" = 0 ] || die "run as root: missing ${missing[*]}"
    say "installing ${missing[*]} (log: $LOG)"
    local made=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && made=1
    fi
    local opts=(-y -q --no-install-recommends -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300)
    DEBIAN_FRONTEND=noninteractive apt-get install "${opts[@]}" "${missing[@]}" >>"$LOG" 2>&1 ||
        { apt-get update -q >>"$LOG" 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install "${opts[@]}" "${missing[@]}" >>"$LOG" 2>&1; } ||
        { [ $made = 0 ] || rm -f /usr/sbin/policy-rc.d; die "apt-get install ${missing[*]} failed, see $LOG"; }
    [ $made = 0 ] || rm -f /usr/sbin/policy-rc.d
}

# unpack_debs DIR PKG... -> the packages' files under $OPT/DIR (marker: .unpacked-from)
unpack_debs() {
    local dir=$OPT/$1 debs=$FTPSYNC_LAB/cache/debs p deb
    shift
    [ -s "$dir/.unpacked-from" ] && return 0
    mkdir -p "$debs"
    rm -rf "$dir.tmp"
    mkdir -p "$dir.tmp"
    for p in "$@"; do
        deb=$(find "$debs" -maxdepth 1 -name "${p}_*.deb" | sort | tail -n 1)
        if [ -z "$deb" ]; then
            say "downloading $p .deb into $debs"
            (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "$p" >>"$LOG" 2>&1) ||
                { apt-get update -q >>"$LOG" 2>&1 &&
                    (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "$p" >>"$LOG" 2>&1); } ||
                die "apt-get download $p failed, see $LOG"
            deb=$(find "$debs" -maxdepth 1 -name "${p}_*.deb" | sort | tail -n 1)
        fi
        dpkg-deb -x "$deb" "$dir.tmp" || die "dpkg-deb -x $deb failed"
        basename "$deb" >>"$dir.tmp/.unpacked-from"
    done
    rm -rf "$dir"
    mv "$dir.tmp" "$dir"
}

install_proftpd() {
    apt_packages "${PROFTPD_LIBS[@]}"
    unpack_debs proftpd proftpd-core proftpd-mod-crypto
    [ -x "$OPT/proftpd/usr/sbin/proftpd" ] || die "proftpd binary missing after unpacking"
}

install_pure_ftpd() {
    apt_packages "${PURE_FTPD_LIBS[@]}"
    unpack_debs pure-ftpd pure-ftpd pure-ftpd-common
    [ -x "$OPT/pure-ftpd/usr/sbin/pure-ftpd" ] || die "pure-ftpd binary missing after unpacking"
}

busybox_built() {
    [ -x "$OPT/busybox/busybox" ] && [ "$(cat "$OPT/busybox/BUILD_ID" 2>/dev/null)" = "$BUSYBOX_BUILD_ID" ]
}

install_busybox() {
    busybox_built && return 0
    apt_packages "${BUSYBOX_BUILD[@]}"
    local apt=$FTPSYNC_LAB/apt src=$FTPSYNC_LAB/cache/busybox-build mirror
    mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$mirror" ] || die "no Debian mirror found in the system's apt sources"
    mkdir -p "$apt/sources.d" "$apt/lists/partial" "$apt/cache/archives/partial" "$src"
    printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$mirror" >"$apt/sources.d/busybox-src.sources"
    local private=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/sources.d"
        -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root)
    say "building busybox with ftpd and tcpsvd from Debian's source package (about a minute; log: $LOG)"
    (
        cd "$src"
        if ! ls busybox_*.dsc >/dev/null 2>&1; then
            apt-get "${private[@]}" update -q
            apt-get "${private[@]}" source --download-only busybox
        fi
        rm -rf tree
        dpkg-source -x "$(find . -maxdepth 1 -name "busybox_*.dsc" | sort | head -n 1)" tree
        cd tree
        cp debian/config/pkg/deb .config
        local option
        for option in FTPD FEATURE_FTPD_WRITE FEATURE_FTPD_ACCEPT_BROKEN_LIST FEATURE_FTPD_AUTHENTICATION TCPSVD; do
            sed -i "s/^# CONFIG_$option is not set\$/CONFIG_$option=y/" .config
        done
        sed -i 's/^CONFIG_LAST_SUPPORTED_WCHAR=.*/CONFIG_LAST_SUPPORTED_WCHAR=0/' .config
        yes '' | make oldconfig >/dev/null
        make -j"$(nproc)" busybox
        mkdir -p "$OPT/busybox"
        cp busybox "$OPT/busybox/busybox.new"
        mv "$OPT/busybox/busybox.new" "$OPT/busybox/busybox"
        echo "$BUSYBOX_BUILD_ID" >"$OPT/busybox/BUILD_ID"
    ) >>"$LOG" 2>&1 || die "busybox build failed, see $LOG"
    local usage
    usage=$("$OPT/busybox/busybox" ftpd --help 2>&1 || true)
    case $usage in *"Usage: ftpd"*) ;; *) die "the built busybox has no ftpd applet" ;; esac
}

lab_dirs
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(proftpd pure-ftpd busybox)
exec 9>>"$FTPSYNC_LAB/cache/install-servers.lock" || die "cannot open the lock"
flock 9
for kind in "${kinds[@]}"; do
    case $kind in
        proftpd) install_proftpd ;;
        pure-ftpd) install_pure_ftpd ;;
        busybox) install_busybox ;;
        *) die "unknown server '$kind' (proftpd, pure-ftpd, busybox)" ;;
    esac
done
