# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# shellcheck shell=bash
# Helpers shared by the scripts in this folder. Sourced, never executed.
#
# Everything the scripts create outside the repository lives under $FTPSYNC_LAB
# (default /tmp/ftpsync-lab):
#   logs/            install-deps.log
#   cache/           downloaded .deb files, lock files
#   opt/vsftpd/      the vsftpd package, unpacked (never dpkg-installed)
#   run/KIND-ADDR-PORT/   one folder per running test server (config, logs, pid, info)

FTPSYNC_LAB=${FTPSYNC_LAB:-/tmp/ftpsync-lab}
SCRIPTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck disable=SC2034 # used by the scripts that source this file
REPO_ROOT=$(cd "$SCRIPTS_DIR/.." && pwd -P)
# The Debian python, which has pyftpdlib; `python3` on PATH may be another one.
# shellcheck disable=SC2034
SYS_PYTHON=/usr/bin/python3

# say MESSAGE...  -> progress line on stderr, prefixed with the script's name
say() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }

# die MESSAGE...  -> error line on stderr, exit 1
die() {
    printf '[%s] error: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}

# lab_dirs -> create the lab folders (needs write access to $FTPSYNC_LAB)
lab_dirs() {
    mkdir -p "$FTPSYNC_LAB/logs" "$FTPSYNC_LAB/cache" "$FTPSYNC_LAB/opt" "$FTPSYNC_LAB/run" ||
        die "cannot create $FTPSYNC_LAB"
}

# is_loopback ADDR -> true for 127.0.0.0/8 (dotted quad) and ::1
is_loopback() {
    local a=$1 part
    if [ "$a" = ::1 ]; then return 0; fi
    [[ $a =~ ^127\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$ ]] || return 1
    for part in "${BASH_REMATCH[@]:1}"; do
        [ "$part" -le 255 ] || return 1
    done
    return 0
}

# alive PID -> the process exists and is not a zombie
alive() {
    local st
    st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    [ -n "$st" ] && [ "${st:0:1}" != Z ]
}
