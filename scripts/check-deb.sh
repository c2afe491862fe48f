#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Checks the Debian package on this machine, as root: lintian, install, the binary without the
# Swift toolchain, a real pull, the man page, the completions, the documentation, removal.
#
#   scripts/check-deb.sh                  build the package first (scripts/package-deb.sh)
#   scripts/check-deb.sh dist/ftpsync_0.2.0_amd64.deb   check this package
#
# An installed ftpsync package is removed first (and not put back). The package is installed
# with `dpkg -i`, then removed with `dpkg -r` by the last check (or on exit, whatever happens).
# The installed binary runs in cron's bare environment (`env -i PATH=/usr/bin:/bin HOME=/root`):
# --version, and a pull from a pyftpdlib server on 127.0.60.1 (scripts/ftp-server.sh, stopped
# on exit) whose result must equal the served tree. Files that dpkg's configuration leaves out
# (path-exclude in /etc/dpkg/dpkg.cfg.d/, as in slim images) are checked in the package instead.
#
# One line per check, `PASS name: …` or `FAIL name: …` (`SKIP no-toolchain` where `unshare -m`,
# which hides the toolchain's folder, is not permitted), then
# `check-deb.sh: PASS (N checks) in Ts` or `check-deb.sh: FAIL (failed: …) in Ts`.
# Exit status 0 when every check passes, 1 otherwise, 2 on a usage error or when not root.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
started=$SECONDS

case "${1:-}" in
    -h | --help) sed -n '4,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
esac
[ $# -le 1 ] || { echo "usage: scripts/check-deb.sh [PACKAGE.deb]" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "check-deb: run as root (it installs and removes the package)" >&2; exit 2; }

work=$(mktemp -d /tmp/ftpsync-check-deb.XXXXXX)
server_pid=""
installed_by_us=0
# shellcheck disable=SC2317  # called by the trap
cleanup() {
    [ -z "$server_pid" ] || "$root/scripts/ftp-server.sh" stop "$server_pid" >/dev/null 2>&1 || true
    if [ "$installed_by_us" = 1 ]; then dpkg -r ftpsync >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=()
failed=()
pass() { passed+=("$1"); printf 'PASS %s: %s\n' "$1" "$2"; }
fail() { failed+=("$1"); printf 'FAIL %s: %s\n' "$1" "$2"; }
# bare CMD... -> CMD in cron's environment
bare() { env -i PATH=/usr/bin:/bin HOME=/root "$@"; }
finish() {
    local took=$((SECONDS - started))
    if [ ${#failed[@]} -eq 0 ]; then
        echo "check-deb.sh: PASS (${#passed[@]} checks) in ${took}s"
        exit 0
    fi
    echo "check-deb.sh: FAIL (failed: ${failed[*]}) in ${took}s"
    exit 1
}

# ------------------------------------------------------------------ the package
if [ $# -eq 1 ]; then
    deb=$(realpath "$1")
    [ -f "$deb" ] || { echo "check-deb: no such file: $1" >&2; exit 2; }
    pass package "$deb (given)"
else
    t=$SECONDS
    if deb=$("$root/scripts/package-deb.sh" --no-lintian 2>"$work/package.log" | tail -n 1) && [ -f "$deb" ]; then
        pass package "$(basename "$deb") built in $((SECONDS - t))s (scripts/package-deb.sh)"
    else
        fail package "scripts/package-deb.sh failed:"
        sed 's/^/    /' "$work/package.log" | tail -n 20
        finish
    fi
fi
version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
# Paths of the package's files, without the leading "."; its folders separately.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' >"$work/files"
dpkg-deb -c "$deb" | awk '$1 ~ /^d/ { sub(/^\./, "", $6); sub(/\/$/, "", $6); print $6 }' >"$work/dirs"

# ------------------------------------------------------------------ lintian
if ! command -v lintian >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends lintian >"$work/apt.log" 2>&1 ||
        { apt-get update >>"$work/apt.log" 2>&1 &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends lintian >>"$work/apt.log" 2>&1; } ||
        true
fi
t=$SECONDS
if ! command -v lintian >/dev/null; then
    fail lintian "lintian is missing and could not be installed (see apt-get install lintian)"
else
    lintian "$deb" >"$work/lintian.txt" 2>&1 || true
    errors=$(grep -c '^E: ' "$work/lintian.txt" || true)
    warnings=$(grep -c '^W: ' "$work/lintian.txt" || true)
    if [ "$errors" = 0 ] && ! grep -q '^\(internal error\|error\)' "$work/lintian.txt"; then
        pass lintian "no error, $warnings warnings ($((SECONDS - t))s)"
    else
        fail lintian "$errors errors, $warnings warnings"
    fi
    grep -E '^(E|W): ' "$work/lintian.txt" | sed 's/^/    /' || true
fi

# ------------------------------------------------------------------ install
# dpkg's path-exclude/path-include rules, in the order dpkg reads them (the last match wins).
rules=()
for f in /etc/dpkg/dpkg.cfg.d/* /etc/dpkg/dpkg.cfg; do
    [ -f "$f" ] || continue
    while read -r key value; do
        case "$key" in
            path-exclude=* | path-include=*) rules+=("${key%%=*}=${key#*=}") ;;
            path-exclude | path-include) rules+=("$key=$value") ;;
        esac
    done <"$f"
done
excluded() {
    local verdict=1 rule pattern
    for rule in "${rules[@]+"${rules[@]}"}"; do
        pattern=${rule#*=}
        # shellcheck disable=SC2053  # the pattern is a glob, as for dpkg (fnmatch)
        if [[ $1 == $pattern ]]; then
            if [[ $rule == path-exclude=* ]]; then verdict=0; else verdict=1; fi
        fi
    done
    return $verdict
}
# installed PATH -> PATH is on disk after dpkg -i, or dpkg's configuration leaves it out
installed() { [ -e "$1" ] || excluded "$1"; }
# from_package PATH -> the file's content, from the package
from_package() { dpkg-deb --fsys-tarfile "$deb" | tar -xO ".$1"; }

status=$(dpkg-query -W -f='${Status} ${Version}' ftpsync 2>/dev/null || true)
if [[ $status == *" installed "* ]]; then
    echo "note: removing the installed ftpsync ${status##* } first"
    dpkg -r ftpsync >"$work/dpkg-r-old.log" 2>&1 || { fail install "dpkg -r of the installed ftpsync failed"; finish; }
elif [ -e /usr/bin/ftpsync ]; then
    echo "note: /usr/bin/ftpsync belongs to no package; dpkg -i replaces it and dpkg -r removes it"
fi
t=$SECONDS
installed_by_us=1 # from here on, cleanup removes it (also when stopped during dpkg -i)
if dpkg -i "$deb" >"$work/dpkg-i.log" 2>&1; then
    missing=$(while read -r f; do installed "$f" || echo "$f"; done <"$work/files")
    if [ -z "$missing" ]; then
        pass install "dpkg -i $version ($((SECONDS - t))s)"
    else
        fail install "dpkg -i left out: $(echo "$missing" | tr '\n' ' ')"
    fi
else
    fail install "dpkg -i failed:"
    sed 's/^/    /' "$work/dpkg-i.log" | tail -n 20
    finish
fi
skipped=$(while read -r f; do if excluded "$f"; then echo "$f"; fi; done <"$work/files" | wc -l)
[ "$skipped" = 0 ] || echo "note: dpkg's configuration (path-exclude) leaves out $skipped of the package's files"

# ------------------------------------------------------------------ the binary: nothing from the toolchain
bin=/usr/bin/ftpsync
swift_bin=$(command -v swift || true)
toolchain=""
[ -z "$swift_bin" ] || toolchain=$(cd "$(dirname "$(realpath "$swift_bin")")/../.." && pwd)
dynamic=$(readelf -d "$bin" 2>&1 || true)
bad=$(printf '%s\n' "$dynamic" | grep -E '\((NEEDED|RPATH|RUNPATH)\)' |
    grep -Ei 'swift|Foundation|dispatch|BlocksRuntime|\((RPATH|RUNPATH)\)' || true)
if [ -z "$bad" ] && printf '%s\n' "$dynamic" | grep -q NEEDED; then
    pass elf "needs $(printf '%s\n' "$dynamic" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')(no RPATH/RUNPATH)"
else
    fail elf "readelf -d: $(printf '%s\n' "${bad:-no NEEDED entry}" | sed 's/.*(\(NEEDED\|RPATH\|RUNPATH\)) *//' | tr '\n' ';')"
fi
ldd_out=$(bare ldd "$bin" 2>&1 || true)
bad=$(printf '%s\n' "$ldd_out" | grep -E 'not found|=> /opt/|libswift|libFoundation' || true)
[ -z "$toolchain" ] || bad+=$'\n'$(printf '%s\n' "$ldd_out" | grep -F "$toolchain/" || true)
bad=$(printf '%s\n' "$bad" | awk 'NF { print $1, $2, $3 }' | sort -u)
if [ -z "$bad" ]; then
    pass ldd "every library found, none under /opt${toolchain:+ or $toolchain} (swift: ${swift_bin:-not on PATH})"
else
    fail ldd "$(printf '%s\n' "$bad" | wc -l) libraries not found or from the toolchain: $(printf '%s\n' "$bad" | head -n 3 | tr '\n' ';') …"
fi
# Every library it loads must come from a package in Depends (or be libc6's loader).
undeclared=""
for lib in $(printf '%s\n' "$ldd_out" | awk '/=> \// { print $3 }'); do
    owner=$(dpkg -S "$(realpath "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null || true)
    owner=${owner%%:*}
    [ -n "$owner" ] && [[ ", $depends," == *", $owner "* || ", $depends," == *", $owner,"* ]] ||
        undeclared+="$(basename "$lib") (${owner:-no package}) "
done
if [ -z "$undeclared" ]; then
    pass depends "every library ldd lists is from a package in Depends: $depends"
else
    fail depends "not declared: $undeclared"
fi
# With the toolchain's folder hidden (an empty tmpfs over it, in a private mount namespace).
if [ -n "$toolchain" ] && [ "$toolchain" != / ] && ! unshare -m true 2>/dev/null; then
    echo "SKIP no-toolchain: unshare -m is not permitted here (the elf and ldd checks still hold)"
elif [ -n "$toolchain" ] && [ "$toolchain" != / ]; then
    # shellcheck disable=SC2016  # $1 and $@ belong to the inner sh
    if hidden=$(unshare -m sh -c 'mount -t tmpfs none "$1" && shift && exec env -i PATH=/usr/bin:/bin HOME=/root "$@"' \
        sh "$toolchain" "$bin" --version 2>&1); then
        pass no-toolchain "runs with $toolchain hidden: $hidden"
    else
        fail no-toolchain "with $toolchain hidden: $hidden"
    fi
fi

# ------------------------------------------------------------------ it runs
if out=$(bare ftpsync --version 2>&1); then
    if [ "$out" = "ftpsync $version" ]; then
        pass version "'ftpsync --version' prints '$out'"
    else
        fail version "'ftpsync --version' prints '$out', the package is $version"
    fi
else
    fail version "'ftpsync --version' failed: $out"
fi

served="$work/served"
mkdir -p "$served/DCIM/2026 spring" "$served/empty"
printf 'hello\n' >"$served/DCIM/a.txt"
head -c 1048576 /dev/urandom >"$served/DCIM/2026 spring/clip 1.mp4"
: >"$served/DCIM/zero"
t=$SECONDS
if read -r server_pid port < <("$root/scripts/ftp-server.sh" start pyftpdlib "$served" 127.0.60.1 0 debuser debpass \
    --owner $$ --log "$work/commands.log" 2>"$work/server.err"); then
    cat >"$work/device.yaml" <<EOF
local: $work/mirror
devices:
  - name: loopback
    host: 127.0.60.1
    port: $port
    user: debuser
    password: debpass
    remote: /
EOF
    chmod 600 "$work/device.yaml"
    if bare ftpsync pull "$work/device.yaml" -q >"$work/pull.log" 2>&1; then
        if diff -r "$served" "$work/mirror/loopback" >"$work/diff.log" 2>&1; then
            pass pull "ftpsync pull from pyftpdlib on 127.0.60.1:$port: the tree arrived ($((SECONDS - t))s)"
        else
            fail pull "the pulled tree differs: $(head -n 3 "$work/diff.log" | tr '\n' ';')"
        fi
    else
        fail pull "ftpsync pull exited $?: $(tail -n 3 "$work/pull.log" | tr '\n' ';')"
    fi
else
    fail pull "the FTP server did not start: $(tail -n 3 "$work/server.err" | tr '\n' ';')"
fi

# ------------------------------------------------------------------ the man page
man_page=/usr/share/man/man1/ftpsync.1.gz
if ! command -v man >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends man-db >"$work/apt-man.log" 2>&1 || true
fi
if ! command -v man >/dev/null; then
    fail man "man is missing (apt-get install man-db)"
elif excluded "$man_page"; then
    # dpkg leaves /usr/share/man out here: read the page from the package.
    if from_package "$man_page" | gzip -dc | man -l - 2>/dev/null | head -n 5 | grep -q 'NAME'; then
        pass man "$man_page is left out by dpkg's path-exclude; the page in the package reads with man -l"
    else
        fail man "the page in the package does not read with man -l"
    fi
else
    where=$(bare man -w ftpsync 2>&1 || true)
    head_lines=$(bare man ftpsync 2>/dev/null | head -n 5 || true)
    if [ "$where" = "$man_page" ] && printf '%s\n' "$head_lines" | grep -q '^NAME' &&
        printf '%s\n' "$head_lines" | grep -q 'ftpsync'; then
        pass man "man -w ftpsync: $where; man ftpsync shows its NAME section"
    else
        fail man "man -w ftpsync: '$where'; man ftpsync | head: $(printf '%s\n' "$head_lines" | tr '\n' ';')"
    fi
fi

# ------------------------------------------------------------------ completions
bash_c=/usr/share/bash-completion/completions/ftpsync
zsh_c=/usr/share/zsh/vendor-completions/_ftpsync
fish_c=/usr/share/fish/vendor_completions.d/ftpsync.fish
missing=""
for f in "$bash_c" "$zsh_c" "$fish_c"; do
    if excluded "$f"; then
        [ -n "$(from_package "$f")" ] || missing+="$f "
    else
        [ -s "$f" ] || missing+="$f "
    fi
done
if [ -n "$missing" ]; then
    fail completions "missing or empty: $missing"
elif excluded "$bash_c"; then
    pass completions "bash, zsh, fish present (bash's left out by path-exclude; checked in the package)"
elif out=$(bare bash -c "source $bash_c && complete -p ftpsync" 2>&1) && [[ $out == complete* ]]; then
    pass completions "bash, zsh, fish present; bash loads: $out"
else
    fail completions "sourcing $bash_c: $out"
fi

# ------------------------------------------------------------------ documentation
missing=""
for f in /usr/share/doc/ftpsync/copyright /usr/share/doc/ftpsync/changelog.gz \
    /usr/share/doc/ftpsync/examples/device.yaml; do
    installed "$f" || missing+="$f "
    grep -qxF "$f" "$work/files" || missing+="$f(not in the package) "
done
if [ -z "$missing" ]; then
    pass doc "copyright, changelog.gz, examples/ under /usr/share/doc/ftpsync"
else
    fail doc "missing: $missing"
fi

# ------------------------------------------------------------------ removal
t=$SECONDS
if dpkg -r ftpsync >"$work/dpkg-r.log" 2>&1; then
    installed_by_us=0
    left=$(while read -r f; do [ ! -e "$f" ] || echo "$f"; done <"$work/files")
    [ ! -d /usr/share/doc/ftpsync ] || left+=" /usr/share/doc/ftpsync/"
    state=$(dpkg-query -W -f='${Status}' ftpsync 2>/dev/null || true)
    if [ -z "$left" ] && [[ $state != *" installed" ]]; then
        pass remove "dpkg -r: all $(wc -l <"$work/files") files gone ($((SECONDS - t))s)"
    else
        fail remove "left after dpkg -r: $(echo "$left" | tr '\n' ' ') (status: $state)"
    fi
else
    fail remove "dpkg -r failed: $(tail -n 3 "$work/dpkg-r.log" | tr '\n' ';')"
fi

finish
