#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Fill DIR with a deterministic sample tree for tests and the demo.
#
#   scripts/make-sample-tree.sh DIR [--seed N] [--big BYTES]
#
# Same arguments -> byte-identical files with identical modification times.
# --seed N     varies the content of the random files (default 1)
# --big BYTES  size of big/random.bin (default 3145728 = 3 MiB)
# The tree (paths relative to DIR):
#   DCIM/100CAM/IMG_0001.JPG ... IMG_0003.JPG   random, 96-200 KiB
#   DCIM/100CAM/video clip.mp4                  random, 512 KiB, name with a space
#   Documents/notes with spaces/read me.txt     text
#   中文资料/照片 一.jpg, 中文资料/说明.txt      Chinese names
#   -leading-dash.txt                           name starting with "-"
#   semi;colon.txt                              name with ";" (trips naive MLSD parsers)
#   deep/a/b/c/d/leaf.txt                       nested five levels
#   empty-folder/                               no entries
#   zero.bin                                    0 bytes
#   big/random.bin                              --big bytes of random data
# No dot files (vsftpd hides them from LIST). Every modification time is at
# 00:00:00 UTC, so any listing precision (MLSD seconds, LIST minutes or LIST
# days) shows it exactly. Folders get fixed times too. Prints nothing on stdout.
set -euo pipefail

die() {
    echo "make-sample-tree.sh: $*" >&2
    exit 1
}

[ $# -ge 1 ] || die "usage: make-sample-tree.sh DIR [--seed N] [--big BYTES]"
dir=$1
shift
seed=1
big=3145728
while [ $# -gt 0 ]; do
    case $1 in
        --seed) seed=${2:?--seed needs N}; shift ;;
        --big) big=${2:?--big needs BYTES}; shift ;;
        *) die "unknown option $1" ;;
    esac
    shift
done
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a number"
[[ $big =~ ^[0-9]+$ ]] || die "--big must be a number of bytes"
command -v openssl >/dev/null || die "openssl is needed (scripts/install-deps.sh)"

mkdir -p "$dir"
cd "$dir"

# random NAME BYTES TAG -> BYTES pseudo-random bytes: AES-128-CTR keystream with a
# key made from the seed and the tag (CTR output is exactly as long as its input)
random() {
    local key
    key=$(printf 'ftpsync-%s-%s' "$seed" "$3" | sha256sum | cut -c1-32)
    head -c "$2" /dev/zero |
        openssl enc -aes-128-ctr -nosalt -K "$key" -iv 00000000000000000000000000000000 >"$1"
}

# stamp DATE PATH... -> modification time DATE 00:00:00 UTC
stamp() {
    local d=$1
    shift
    touch -h -d "$d 00:00:00 UTC" -- "$@"
}

mkdir -p DCIM/100CAM "Documents/notes with spaces" 中文资料 deep/a/b/c/d empty-folder big

random DCIM/100CAM/IMG_0001.JPG 98304 img1
random DCIM/100CAM/IMG_0002.JPG 150001 img2
random DCIM/100CAM/IMG_0003.JPG 204800 img3
random "DCIM/100CAM/video clip.mp4" 524288 video
printf 'Seed %s.\nA text file in a folder whose name has spaces.\n' "$seed" >"Documents/notes with spaces/read me.txt"
random "中文资料/照片 一.jpg" 65536 photo-cn
printf '种子 %s：中文文件名的说明。\n' "$seed" >中文资料/说明.txt
printf 'leading dash %s\n' "$seed" >./-leading-dash.txt
printf 'semicolon %s\n' "$seed" >"semi;colon.txt"
printf 'five levels down %s\n' "$seed" >deep/a/b/c/d/leaf.txt
: >zero.bin
random big/random.bin "$big" big

stamp 2023-01-15 DCIM/100CAM/IMG_0001.JPG
stamp 2023-02-20 DCIM/100CAM/IMG_0002.JPG
stamp 2023-03-25 DCIM/100CAM/IMG_0003.JPG
stamp 2023-04-30 "DCIM/100CAM/video clip.mp4"
stamp 2022-06-01 "Documents/notes with spaces/read me.txt"
stamp 2022-07-04 "中文资料/照片 一.jpg"
stamp 2022-08-08 中文资料/说明.txt
stamp 2021-09-09 ./-leading-dash.txt
stamp 2021-10-10 "semi;colon.txt"
stamp 2020-11-11 deep/a/b/c/d/leaf.txt
stamp 2020-12-12 zero.bin
stamp 2024-02-29 big/random.bin
# folders last, deepest first (creating entries changes a folder's time)
find . -mindepth 1 -depth -type d -print0 | xargs -0 touch -h -d "2024-03-01 00:00:00 UTC" --
