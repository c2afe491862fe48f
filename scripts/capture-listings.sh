#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Capture raw listings of one tricky tree from the five lab servers into a folder:
#
#   scripts/capture-listings.sh OUTDIR
#
# Builds the tree (spaces, leading dashes, Chinese, NFD, semicolons, a dotfile, links to a
# file, a folder and nowhere, an empty folder, a zero-byte file, a 1999 file), serves it
# with pyftpdlib, vsftpd, proftpd, pure-ftpd and busybox on 127.0.0.69 in turn, and saves
# the data-connection bytes exactly as received (curl): KIND-list.txt (LIST) and, where the
# server has MLSD, KIND-mlsd.txt. OUTDIR/captured-at.txt holds the capture time (seconds
# since 1970, UTC), which the parser needs as its clock. Needs root (the servers chroot).
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

[ $# = 1 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd -P)
lab_dirs
tree=$FTPSYNC_LAB/capture-tree
rm -rf "$tree"
mkdir -p "$tree/目录 with space" "$tree/empty-dir"
now=$(date -u +%s)
recent=$(( (now / 60) * 60 - 2 * 86400 ))
stamp() { touch -h -d "@$1" "$2"; }
make_file() { printf '%s' "$2" >"$tree/$1"; stamp "$3" "$tree/$1"; }
make_file "file with spaces.txt" "spaces" $recent
make_file "-leading-dash.txt" "dash" $((recent - 60))
make_file "--double-dash.txt" "double" $((recent - 120))
make_file "中文文件.txt" "中文" $((recent - 180))
make_file "目录 with space/inner.txt" "inner" $((recent - 240))
make_file "name;with;semicolons.txt" "semi" $((recent - 300))
make_file "UPPER.TXT" "UPPER" $((recent - 360))
make_file "upper.txt" "lower" $((recent - 420))
make_file "old-1999.txt" "old" 929450096
make_file "zero-bytes.bin" "" $((recent - 480))
make_file ".hidden-file" "hidden" $((recent - 540))
make_file "$(printf 'Cafe\xcc\x81 nfd.txt')" "nfd" $((recent - 600))
make_file "2024 starts with digits.txt" "digits" $((recent - 660))
head -c 1048576 /dev/zero >"$tree/one-MiB.bin" && stamp $((recent - 720)) "$tree/one-MiB.bin"
ln -s "file with spaces.txt" "$tree/link-to-file" && stamp $((recent - 780)) "$tree/link-to-file"
ln -s "empty-dir" "$tree/link-to-dir" && stamp $((recent - 840)) "$tree/link-to-dir"
ln -s "nowhere" "$tree/dangling-link" && stamp $((recent - 900)) "$tree/dangling-link"
stamp $((recent - 960)) "$tree/empty-dir"
stamp $((recent - 1020)) "$tree/目录 with space"
chmod 755 "$FTPSYNC_LAB" "$tree"

echo "$now" >"$out/captured-at.txt"
for kind in pyftpdlib vsftpd proftpd pure-ftpd busybox; do
    started=$("$SCRIPTS_DIR/ftp-server.sh" start "$kind" "$tree" 127.0.0.69 0 capturer capture-pw) ||
        die "$kind did not start"
    pid=${started% *}
    port=${started#* }
    url="ftp://capturer:capture-pw@127.0.0.69:$port/"
    curl -sS --max-time 30 "$url" >"$out/$kind-list.txt" || say "$kind: LIST failed"
    if [ "$kind" = pyftpdlib ] || [ "$kind" = proftpd ] || [ "$kind" = pure-ftpd ]; then
        curl -sS --max-time 30 -X MLSD "$url" >"$out/$kind-mlsd.txt" || say "$kind: MLSD failed"
    fi
    "$SCRIPTS_DIR/ftp-server.sh" stop "$pid"
    say "$kind captured"
done
