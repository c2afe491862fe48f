#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 17's benchmark: ftpsync's peak RSS and wall time against the size of the tree, next to
# lftp `mirror`, on vsftpd (loopback). As root, with lftp and GNU time installed (Benchmarks/run.sh
# installs them and calls this script for `--only scale`):
#
#   Benchmarks/scale/run.sh [--sizes 100000,300000,1000000] [--work DIR] [--keep] [--plot FILE]
#                           [--before TSV] [--lftp-max N]
#
# For each size N: a tree of N files of 16 bytes, 1,000 to a folder, made by make-tree.py (a tar
# stream unpacked by `tar -x`) under WORK/served/N, served by vsftpd on BENCH_ADDR (default
# 127.0.0.91). Then, one run each, timed by `/usr/bin/time` (wall, user+sys CPU, peak RSS):
#   ftpsync first pull (empty local root), checked with `diff -r`;
#   ftpsync no-op pull (the same root again), checked by counting the files;
#   ftpsync adopting pull (the same root, its state deleted: every file found in sync and
#     recorded without a transfer), checked by counting the files and `status`'s record count;
#   ftpsync `pull --dry-run` into a fresh local root (a plan of N downloads), its report written
#     to a file; checked: one line per planned download, no file written;
#   lftp `mirror` first (empty folder), checked with `diff -r`, and no-op (the same folder again).
# Each local copy is deleted once measured, so a size needs room for its tree and one copy
# (checked with `df` before the size starts; the script refuses when short).
# --work   default /tmp/ftpsync-bench-scale. A tree unpacked there by an earlier run with --keep
#          is used again (WORK/served/.complete-N says it was unpacked whole). A folder that
#          exists, is not empty and was not made by this script is refused.
# --keep   keep the trees (for the next run) and the results; without it WORK is deleted.
# --plot   the SVG of peak RSS against files (default WORK/scale-rss.svg); --before TSV adds an
#          earlier run's results (WORK/scale.tsv of that run) to it, drawn lighter, and its lftp
#          figures stand in for the sizes this run did not measure lftp at.
# --lftp-max N  measure lftp only at sizes up to N files (lftp's figures do not depend on
#          ftpsync's code; its first pull of 1,000,000 files takes 10 to 40 minutes here).
# FTPSYNC_BIN=path skips the release build.
#
# Prints two markdown tables: the measurements, and the issue's targets with a verdict.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=Benchmarks/Support/ftp-session.sh
. "$root/Benchmarks/Support/ftp-session.sh"
sizes=100000,300000,1000000 work=/tmp/ftpsync-bench-scale keep=0 plot="" before="" lftp_max=""
usage="usage: Benchmarks/scale/run.sh [--sizes N,N,...] [--work DIR] [--keep] [--plot FILE] [--before TSV] [--lftp-max N]"
while [ $# -gt 0 ]; do
    case $1 in
    --sizes) sizes=$2; shift ;;
    --work) work=$2; shift ;;
    --keep) keep=1 ;;
    --plot) plot=$2; shift ;;
    --before) before=$2; shift ;;
    --lftp-max) lftp_max=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
[[ $sizes =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || { echo "scale: --sizes takes numbers of files, like 100000,300000" >&2; exit 2; }
[ -z "$before" ] || [ -r "$before" ] || { echo "scale: cannot read --before $before" >&2; exit 2; }
[[ $lftp_max =~ ^[0-9]*$ ]] || { echo "scale: --lftp-max takes a number of files" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "scale: needs root (vsftpd logs in a system user)" >&2; exit 1; }
for tool in lftp /usr/bin/time /usr/bin/python3 tar diff; do
    command -v "$tool" >/dev/null || { echo "scale: $tool is missing (Benchmarks/run.sh installs the peers)" >&2; exit 1; }
done
if [ -e "$work" ] && [ ! -e "$work/.ftpsync-bench-scale" ] && [ -n "$(ls -A "$work" 2>/dev/null)" ]; then
    echo "scale: $work exists and was not made by this script; give --work an empty or new folder" >&2
    exit 2
fi
mkdir -p "$work/served" && touch "$work/.ftpsync-bench-scale" && chmod 755 "$work" "$work/served"
work=$(cd "$work" && pwd)
plot=${plot:-$work/scale-rss.svg}
addr=${BENCH_ADDR:-127.0.0.91} user=benchftp pass=bench-pw-8
log() { echo "== $*" >&2; }
if [ -z "${FTPSYNC_BIN:-}" ]; then
    log "building ftpsync (release)"
    (cd "$root" && swift build -c release --product ftpsync >/dev/null)
    FTPSYNC_BIN=$root/.build/release/ftpsync
fi

pid=""
cleanup() {
    [ -z "$pid" ] || "$root/scripts/ftp-server.sh" stop "$pid" >/dev/null 2>&1 || true
    rm -rf "$work/out"
    [ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
read -r pid port < <("$root/scripts/ftp-server.sh" start vsftpd "$work/served" "$addr" 0 "$user" "$pass" \
    --log "$work/commands.log" 2>/dev/null)
[ -n "${port:-}" ] || { echo "scale: vsftpd did not start on $addr" >&2; exit 1; }
bench_lftp_script "$work/lftp_run" "$addr" "$port" "$user" "$pass"

# room N: refuses (exit 1) when the file system of WORK lacks the blocks or inodes for size N:
# its tree unless already there, one local copy and ftpsync's state (5 KiB and 1 inode a file
# each, a file's 16 bytes taking a 4 KiB block), vsftpd's command log of the size's runs (about
# 2 KiB a file; emptied after each size), and 1 GiB to spare.
room() {
    local n=$1 copies=1 kib inodes free_kib free_inodes
    [ -e "$work/served/.complete-$n" ] || copies=2
    kib=$((n * 5 * copies + n * 2 + 1048576)) inodes=$((n * copies + n * copies / 1000 + 10000))
    free_kib=$(df -P -k "$work" | awk 'NR == 2 { print $4 }')
    free_inodes=$(df -P -i "$work" | awk 'NR == 2 { print $4 }')
    if [ "$free_kib" -lt "$kib" ] || [ "$free_inodes" -lt "$inodes" ]; then
        echo "scale: $n files need about $((kib / 1048576)) GiB and $inodes inodes free under $work;" \
            "there are $((free_kib / 1048576)) GiB and $free_inodes inodes (give --work another file system or smaller --sizes)" >&2
        exit 1
    fi
}
# tree N: the served tree of N files (WORK/served/N), unpacked unless an earlier run left it whole
tree() {
    local n=$1
    [ -e "$work/served/.complete-$n" ] && { log "tree of $n files: reused"; return; }
    log "tree of $n files: unpacking"
    rm -rf "${work:?}/served/$n" && mkdir -p "$work/served/$n"
    SECONDS=0
    /usr/bin/python3 "$here/make-tree.py" "$n" 1000 | tar -x -C "$work/served/$n"
    touch "$work/served/.complete-$n"
    log "tree of $n files: unpacked in $SECONDS s"
}
files() { find "$1" -type f | wc -l; }   # files FOLDER: how many files are under FOLDER
same() { diff -r "$1" "$2" >/dev/null || { echo "scale: $3: the copy differs from the tree" >&2; exit 1; }; }
count() { [ "$(files "$1")" = "$2" ] || { echo "scale: $3: $(files "$1") files, not $2" >&2; exit 1; }; }

# measure N RUN TOOL CMD...: runs CMD once under /usr/bin/time, adds a line to WORK/scale.tsv
# (with the 1-minute load average when it started: the machine may be shared)
measure() {
    local n=$1 run=$2 tool=$3 wall usr sys rss load
    shift 3
    sync
    load=$(cut -d' ' -f1 /proc/loadavg)
    if ! /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$@" >"$work/cmd.out" 2>&1; then
        echo "scale: $n files, $run, $tool failed:" >&2; tail -5 "$work/cmd.out" >&2; exit 1
    fi
    read -r wall usr sys rss < <(tail -n 1 "$work/time.txt")
    printf '%s\t%s\t%s\t%s\t%.2f\t%s\t%s\n' "$n" "$run" "$tool" "$wall" "$(awk -v u="$usr" -v s="$sys" 'BEGIN { print u + s }')" \
        "$rss" "$load" >>"$work/scale.tsv"
    log "$n files, $run, $tool: wall $wall s, RSS $((rss / 1024)) MiB (load average $load at the start)"
}

printf 'files\trun\ttool\twall_s\tcpu_s\trss_kib\tload\n' >"$work/scale.tsv"
IFS=, read -r -a list <<<"$sizes"
for n in "${list[@]}"; do
    room "$n"
    tree "$n"
    out=$work/out
    rm -rf "$out" && mkdir -p "$out/ftpsync" "$out/dry"
    bench_config "$work/pull.yaml" "$addr" "$port" "$user" "$pass" "/$n" "$out/ftpsync"
    measure "$n" "first pull" ftpsync "$FTPSYNC_BIN" pull "$work/pull.yaml" -q
    same "$work/served/$n" "$out/ftpsync/b" "ftpsync first pull"
    measure "$n" "no-op pull" ftpsync "$FTPSYNC_BIN" pull "$work/pull.yaml" -q
    count "$out/ftpsync/b" "$n" "ftpsync no-op pull"
    # The state lost (a copy made by another tool): every file is found in sync and adopted.
    rm -f "$out/ftpsync/.ftpsync/state.sqlite" "$out/ftpsync/.ftpsync/state.sqlite-wal" "$out/ftpsync/.ftpsync/state.sqlite-shm"
    measure "$n" "adopting pull" ftpsync "$FTPSYNC_BIN" pull "$work/pull.yaml" -q
    count "$out/ftpsync/b" "$n" "ftpsync adopting pull"
    recorded=$("$FTPSYNC_BIN" status "$work/pull.yaml" --json |
        /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["devices"][0]["files"])')
    [ "$recorded" = "$n" ] || { echo "scale: the adopting pull recorded $recorded files, not $n" >&2; exit 1; }
    bench_config "$work/dry.yaml" "$addr" "$port" "$user" "$pass" "/$n" "$out/dry"
    measure "$n" "dry run" ftpsync "$FTPSYNC_BIN" pull "$work/dry.yaml" --dry-run --no-progress
    planned=$(grep -c '^  download ' "$work/cmd.out" || true)
    [ "$planned" = "$n" ] || { echo "scale: the dry run planned $planned downloads, not $n" >&2; exit 1; }
    [ ! -e "$out/dry/b" ] || count "$out/dry/b" 0 "ftpsync dry run"
    rm -rf "$out/ftpsync" "$out/dry"
    if [ -z "$lftp_max" ] || [ "$n" -le "$lftp_max" ]; then
        measure "$n" "first pull" lftp "$work/lftp_run" "mirror /$n $out/lftp"
        same "$work/served/$n" "$out/lftp" "lftp first pull"
        measure "$n" "no-op pull" lftp "$work/lftp_run" "mirror /$n $out/lftp"
        count "$out/lftp" "$n" "lftp no-op pull"
    fi
    rm -rf "$out"
    : >"$work/commands.log"
    [ "$keep" = 1 ] || { rm -rf "${work:?}/served/$n" "$work/served/.complete-$n"; }
done

[ "$keep" = 1 ] || { log "results (WORK is deleted):"; cat "$work/scale.tsv" >&2; }
echo
echo "Benchmarks/scale/run.sh --sizes $sizes (one run each) — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, vsftpd on loopback"
echo
/usr/bin/python3 "$here/report.py" "$work/scale.tsv" "$plot" ${before:+"$before"}
log "plot: $plot${before:+ (with $before)}"
case $plot in "$work"/*) [ "$keep" = 1 ] || log "the plot goes with WORK: --keep or --plot FILE keeps it" ;; esac
