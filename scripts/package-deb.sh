#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Builds the Debian package dist/ftpsync_<version>_<arch>.deb: the version from
# scripts/version.sh, the architecture from `dpkg --print-architecture`.
#
#   scripts/package-deb.sh                 build, package, run lintian
#   scripts/package-deb.sh --no-lintian    build and package only (scripts/check-deb.sh runs it)
#   FTPSYNC_MAINTAINER='Name <address>' scripts/package-deb.sh   the control file's Maintainer
#
# The binary is the release build with the Swift runtime and Foundation linked in
# (`make release-static`: swift build -c release --static-swift-stdlib --disable-local-rpath,
# in its own build folder .build/static), so the package needs Debian's libraries only.
# `make install DESTDIR=<stage> PREFIX=/usr` lays out the files (the same recipe as an
# install without a package): /usr/bin/ftpsync (stripped), the man page, the bash, zsh and
# fish completions, and under /usr/share/doc/ftpsync/ the examples, CHANGELOG.md and the
# copyright file (packaging/copyright). This script adds a one-entry
# changelog.gz, DEBIAN/control (Depends from dpkg-shlibdeps on the binary, Installed-Size) and
# DEBIAN/md5sums, then builds with `dpkg-deb --root-owner-group` (no fakeroot needed). The
# changelog's date is the last commit's, so two runs on one commit give the same files.
# Older ftpsync packages of the same architecture in dist/ are removed (one version there).
# lintian (installed with apt-get when missing, as root) must report no error.
#
# Progress goes to stderr; the last line on stdout is the package's path. Exit 1 on failure.
# Needs: the Swift toolchain on PATH, the build's C libraries (scripts/install-deps.sh),
# make, dpkg-dev (dpkg-shlibdeps).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

run_lintian=1
case "${1:-}" in
    "") ;;
    --no-lintian) run_lintian=0 ;;
    -h | --help) sed -n '4,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) echo "package-deb: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

say() { printf 'package-deb: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

maintainer=${FTPSYNC_MAINTAINER:-The ftpsync Authors <ftpsync@example.org>}
version=$(scripts/version.sh)
arch=$(dpkg --print-architecture)
out="$root/dist/ftpsync_${version}_${arch}.deb"

command -v swift >/dev/null || die "swift is not on PATH (https://www.swift.org/install/linux/)"
for tool in make dpkg-deb dpkg-shlibdeps gzip strip; do
    command -v "$tool" >/dev/null || die "$tool is missing (apt-get install make dpkg-dev binutils)"
done
for pkg in libxxhash-dev libyaml-dev libssl-dev libsqlite3-dev pkg-config; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
        die "$pkg is missing: run scripts/install-deps.sh (as root)"
done

stage=$(mktemp -d /tmp/ftpsync-deb.XXXXXX)
cleanup() { rm -rf "$stage"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
umask 022
pkgroot="$stage/root"

# SwiftPM resolves swift-argument-parser from the local mirrors when GitHub is out of reach.
scripts/use-mirrors.sh
say "building and installing into the stage (make install DESTDIR=… PREFIX=/usr)"
make --no-print-directory install DESTDIR="$pkgroot" PREFIX=/usr >&2
bin="$pkgroot/usr/bin/ftpsync"

# No Swift library from outside: nothing of the toolchain may be needed at run time.
if readelf -d "$bin" | grep -E '\((NEEDED|RPATH|RUNPATH)\)' | grep -Eiq 'swift|Foundation|dispatch|BlocksRuntime|RPATH|RUNPATH'; then
    readelf -d "$bin" | grep -E 'NEEDED|RPATH|RUNPATH' >&2
    die "the binary still needs a Swift library or carries a library search path"
fi

# A Debian changelog with one entry: this build.
doc="$pkgroot/usr/share/doc/ftpsync"
when=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    printf 'ftpsync (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * Built from the ftpsync source tree at commit %s\n' "$commit"
    printf '    (scripts/package-deb.sh).\n\n'
    printf ' -- %s  %s\n' "$maintainer" "$(LC_ALL=C date -u -R -d "@$when")"
} | gzip -9n >"$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

# Depends: the packages of the shared libraries the binary loads, as dpkg-shlibdeps finds them.
mkdir -p "$stage/shlibs/debian"
printf 'Source: ftpsync\n\nPackage: ftpsync\nArchitecture: any\n' >"$stage/shlibs/debian/control"
shlibdeps=$(cd "$stage/shlibs" && dpkg-shlibdeps -O "$bin" 2>&1) || die "dpkg-shlibdeps failed: $shlibdeps"
depends=$(printf '%s\n' "$shlibdeps" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies: $shlibdeps"
say "Depends: $depends"

installed_size=$(du -sk --apparent-size "$pkgroot" | cut -f1)
mkdir -p "$pkgroot/DEBIAN"
cat >"$pkgroot/DEBIAN/control" <<EOF
Package: ftpsync
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Section: net
Priority: optional
Description: keep file trees in step with the FTP servers of many devices
 ftpsync copies what is new or changed on the FTP servers of devices (cameras,
 recorders, NAS boxes, controllers), described in one YAML file, into a local
 folder per device, and leaves everything else alone: a file is sent once, an
 interrupted download continues where it stopped, and a half-written file
 never shows up in the local tree. It also pushes local changes to a device,
 syncs both ways, and reports each device's state for monitoring.
 .
 It reads listings in MLSD or in "ls -l" form, copes with device clocks in odd
 time zones, names in legacy encodings and servers that advertise an
 unreachable passive address, and speaks FTPS, through SOCKS5 or HTTP proxies.
EOF
(cd "$pkgroot" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
    >"$pkgroot/DEBIAN/md5sums"
chmod 644 "$pkgroot/DEBIAN/control" "$pkgroot/DEBIAN/md5sums"

mkdir -p "$root/dist"
rm -f "$root/dist/ftpsync_"*"_$arch.deb"
dpkg-deb --root-owner-group --build "$pkgroot" "$out" >&2
say "built $(basename "$out") ($(du -h "$out" | cut -f1); binary $(du -h "$bin" | cut -f1))"

if [ "$run_lintian" = 1 ]; then
    if ! command -v lintian >/dev/null; then
        [ "$(id -u)" = 0 ] || die "lintian is missing (apt-get install lintian, as root)"
        say "installing lintian"
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends lintian >/dev/null 2>&1 ||
            { apt-get update >/dev/null 2>&1 &&
                DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends lintian >/dev/null 2>&1; } ||
            die "installing lintian failed"
    fi
    say "lintian $(basename "$out")"
    lintian --fail-on error "$out" >&2 || die "lintian reported errors"
fi
printf '%s\n' "$out"
