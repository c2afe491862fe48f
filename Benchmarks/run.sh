#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 8's benchmark: ftpsync next to lftp, rclone, curl and xxhsum on the same vsftpd server
# (loopback, 127.0.0.91) and the same data, in one run. As root, on a fresh Debian 12:
#
#   Benchmarks/run.sh [--quick] [--runs N] [--keep] [--work DIR] [--only W] [--scale-sizes N,N,...]
#
# --quick   smaller data (1,000 small files, 256 MiB file, 10,000-file no-op, 512 MiB hash tree
#           and 20,000 tiny files, 200,000-entry plan, scale at 20,000 files): a few minutes.
#           Without it: the issue's sizes (about 7 GiB of disk under WORK, about 10 minutes on
#           2 cores, and about 5 more for scale at 100,000 files).
# --runs N  best of N wall times per tool (default 1 with --quick, else 3).
# --work    where the data goes (default /tmp/ftpsync-bench); deleted at the end unless --keep.
#           A folder that exists, is not empty and was not made by run.sh is refused.
# --only W  run only the workloads named in W, a comma-separated list of small, large, noop,
#           hash, plan, scale, link (default: all but link). link runs Benchmarks/link.sh
#           (through latency_proxy.py at 5, 20 and 80 ms; about 25 minutes, its own table).
# --scale-sizes  the tree sizes of the scale workload (Benchmarks/scale/run.sh, its own vsftpd):
#           default 100000,300000,1000000 when --only names scale (about 40 minutes, 10 GiB);
#           in the run of all workloads 100000 (20000 with --quick).
# FTPSYNC_BIN=path skips the release build; BENCH_ADDR=127.0.0.x serves on another address;
# BENCH_NO_INSTALL=1 skips installing the peers and build dependencies (a prepared machine).
#
# Prints one markdown table: wall time, CPU time (user+sys) and peak RSS from GNU time
# (`/usr/bin/time -f`) for each tool; the CPU time the whole machine was busy during the run
# (/proc/stat: the tool, the server and the kernel; meaningful on a quiet machine only); and on
# ftpsync's row its wall time / the best peer's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=Benchmarks/Support/ftp-session.sh
. "$root/Benchmarks/Support/ftp-session.sh"
quick=0 runs="" keep=0 work=/tmp/ftpsync-bench only=small,large,noop,hash,plan,scale scale_sizes=""
usage="usage: Benchmarks/run.sh [--quick] [--runs N] [--keep] [--work DIR] [--only small,large,noop,hash,plan,scale,link] [--scale-sizes N,N,...]"
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    --runs) runs=$2; shift ;;
    --keep) keep=1 ;;
    --work) work=$2; shift ;;
    --only) only=$2; scale_sizes=${scale_sizes:-100000,300000,1000000}; shift ;;
    --scale-sizes) scale_sizes=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
if [ "$quick" = 1 ]; then
    small_files=1000 large_mib=256 noop_files=10000 noop_folders=200 hash_mib=512 hash_many=20000 plan_entries=200000
    runs=${runs:-1} scale_sizes=${scale_sizes:-20000}
else
    small_files=5000 large_mib=1024 noop_files=50000 noop_folders=1000 hash_mib=4096 hash_many=100000 plan_entries=1000000
    runs=${runs:-3} scale_sizes=${scale_sizes:-100000}
fi
[ "$(id -u)" = 0 ] || { echo "run.sh needs root (packages, and vsftpd logs in a system user)" >&2; exit 1; }
# Never delete a folder this script did not make (the marker file says it did).
if [ -e "$work" ] && [ ! -e "$work/.ftpsync-bench" ] && [ -n "$(ls -A "$work" 2>/dev/null)" ]; then
    echo "run.sh: $work exists and was not made by run.sh; give --work an empty or new folder" >&2
    exit 2
fi
addr=${BENCH_ADDR:-127.0.0.91} user=benchftp pass=bench-pw-8
log() { echo "== $*" >&2; }
# wants W: whether workload W was asked for (--only)
wants() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

# ---------------------------------------------------------------- peers, server, build
if [ -z "${BENCH_NO_INSTALL:-}" ]; then
    log "installing peers and build dependencies"
    FTPSYNC_SKIP_EXTRA_SERVERS=1 "$root/scripts/install-deps.sh" >/dev/null
    missing=()
    for p in lftp rclone curl xxhash hyperfine time; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
    if [ ${#missing[@]} -gt 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >/dev/null ||
            { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >/dev/null; }
    fi
fi
if [ -z "${FTPSYNC_BIN:-}" ]; then
    log "building ftpsync (release)"
    (cd "$root" && swift build -c release --product ftpsync >/dev/null)
    FTPSYNC_BIN=$root/.build/release/ftpsync
fi

pid=""
cleanup() {
    [ -z "$pid" ] || "$root/scripts/ftp-server.sh" stop "$pid" >/dev/null 2>&1 || true
    ! mountpoint -q "$work/smallfs" 2>/dev/null || umount "$work/smallfs" || true
    [ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$work" && mkdir -p "$work/served" "$work/out" "$work/hash" && touch "$work/.ftpsync-bench"
chmod 755 "$work" "$work/served"

# ---------------------------------------------------------------- data
log "generating data in $work"
wants small || small_files=0
wants noop || noop_files=0
/usr/bin/python3 - "$work" "$small_files" "$noop_files" "$noop_folders" <<'PY'
import os, sys
work, small, noop, noop_folders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def tree(top, files, folders, size):
    per = files // folders
    for d in range(folders):
        os.makedirs(f"{top}/d{d:04d}", exist_ok=True)
        for f in range(per):
            with open(f"{top}/d{d:04d}/f{f:05d}.bin", "wb") as out:
                out.write(os.urandom(size))
tree(f"{work}/served/small", small, 100, 4096)
tree(f"{work}/served/noop", noop, noop_folders, 256)
PY
mkdir -p "$work/served/large" "$work/served/push" "$work/pushsrc/b"
if wants large; then
    head -c $((large_mib * 1048576)) /dev/urandom >"$work/served/large/big.bin"
    cp "$work/served/large/big.bin" "$work/pushsrc/b/big.bin"
fi
hash_files=$((hash_mib / 4))
if wants hash; then
    for i in $(seq 0 $((hash_files - 1))); do
        mkdir -p "$work/hash/d$((i / 16))"
        head -c 4194304 /dev/urandom >"$work/hash/d$((i / 16))/f$i.bin"
    done
    # many small files, for the warm digest cache's cost per file
    /usr/bin/python3 - "$work/hash-many" "$hash_many" <<'PY'
import os, sys
top, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    if i % 100 == 0:
        os.makedirs(f"{top}/d{i // 100:05d}", exist_ok=True)
    with open(f"{top}/d{i // 100:05d}/f{i % 100:03d}.bin", "wb") as out:
        out.write(os.urandom(256))
PY
fi

read -r pid port < <("$root/scripts/ftp-server.sh" start vsftpd "$work/served" "$addr" 0 "$user" "$pass" \
    --log "$work/commands.log" 2>/dev/null)
rremote=":ftp,host=$addr,port=$port,user=$user,pass=$(rclone obscure "$pass"):"
export RCLONE_CONFIG=/dev/null
# lftp_run COMMANDS: one lftp session (a script, so /usr/bin/time can run it)
bench_lftp_script "$work/lftp_run" "$addr" "$port" "$user" "$pass"
lftp_run() { "$work/lftp_run" "$@"; }
config() { bench_config "$work/$1.yaml" "$addr" "$port" "$user" "$pass" "$2" "$3"; }   # config NAME REMOTE LOCAL

# ---------------------------------------------------------------- measuring
# measure WORKLOAD TOOL CMD...: best of $runs by wall time, `prep` (a function) before each run.
rows=()
declare -A best_peer
# busy_ticks: the CPU time all cores spent outside idle and I/O wait so far (/proc/stat, in
# clock ticks): the difference over a run counts the server's work and the kernel's as well.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
prep() { :; }
measure() {
    local workload=$1 tool=$2 b="" line
    shift 2
    for _ in $(seq 1 "$runs"); do
        prep
        sync
        local before after
        before=$(busy_ticks)
        if ! /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$@" >"$work/cmd.out" 2>&1; then
            echo "$workload / $tool failed:" >&2; tail -5 "$work/cmd.out" >&2; exit 1
        fi
        after=$(busy_ticks)
        line="$(tail -n 1 "$work/time.txt") $(awk -v a="$after" -v b="$before" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (a - b) / t }')"
        if [ -z "$b" ] || awk -v a="${line%% *}" -v c="${b%% *}" 'BEGIN { exit !(a < c) }'; then b=$line; fi
    done
    read -r wall usr sys rss machine <<<"$b"
    local cpu ratio=""
    cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    if [ "$tool" = ftpsync ]; then
        ratio=$(awk -v a="$wall" -v p="${best_peer[$workload]}" 'BEGIN { printf "%.2f", a / p }')
    elif [ -z "${best_peer[$workload]:-}" ] || awk -v a="$wall" -v p="${best_peer[$workload]}" 'BEGIN { exit !(a < p) }'; then
        best_peer[$workload]=$wall
    fi
    rows+=("| $workload | $tool | $wall | $cpu | $machine | $((rss / 1024)) | $ratio |")
    log "$workload / $tool: wall $wall s, CPU $cpu s (machine $machine s), RSS $((rss / 1024)) MiB ${ratio:+ratio $ratio}"
}
same() { diff -r "$1" "$2" >/dev/null || { echo "$3: result differs from the source" >&2; exit 1; }; }

if wants small; then
    # 1. many small files, 4 connections each. The trees are written to a fresh journaled ext4
    # (a loop-mounted image), each run into a new folder that $work/out points to: every tool
    # creates its 5,000 files on the same clean file system. (On this machine's own ext4, which
    # has no journal, inode allocation skips inodes freed in the last ~35 s, checking each in
    # the buffer cache: after the many deletes of a test run that cost dominated, for every
    # tool alike, and changed from run to run.)
    w="pull $small_files × 4 KB (100 folders), 4 connections"
    log "$w"
    mkdir -p "$work/smallfs"
    truncate -s 2G "$work/smallfs.ext4"
    if ! { mkfs.ext4 -q -F "$work/smallfs.ext4" && mount -o loop "$work/smallfs.ext4" "$work/smallfs"; } 2>/dev/null; then
        log "no loop device here (a container?): the small-file trees go to $work/smallfs on the work folder's file system"
    fi
    rm -rf "$work/out"
    prep() { local next; next=$(mktemp -d "$work/smallfs/run-XXXX"); ln -sfn "$next" "$work/out"; }
    config small /small "$work/out"
    measure "$w" lftp "$work/lftp_run" "mirror --parallel=4 /small $work/out/lftp"
    same "$work/served/small" "$work/out/lftp" lftp
    measure "$w" rclone rclone copy --transfers 4 --checkers 4 "$rremote/small" "$work/out/rclone"
    same "$work/served/small" "$work/out/rclone" rclone
    measure "$w" ftpsync "$FTPSYNC_BIN" pull "$work/small.yaml" -q --parallel 4
    same "$work/served/small" "$work/out/b" ftpsync
    rm -f "$work/out"
    ! mountpoint -q "$work/smallfs" || umount "$work/smallfs"
    rm -rf "$work/smallfs.ext4" "$work/smallfs"
    mkdir -p "$work/out"
fi

if wants large; then
    # 2. one large file, pull and push
    w="pull 1 file of $large_mib MiB"
    log "$w"
    prep() { rm -rf "$work/out"; mkdir -p "$work/out"; }
    config large /large "$work/out"
    measure "$w" curl curl -sS -o "$work/out/curl.bin" "ftp://$user:$pass@$addr:$port/large/big.bin"
    cmp "$work/served/large/big.bin" "$work/out/curl.bin"
    measure "$w" lftp "$work/lftp_run" "get /large/big.bin -o $work/out/lftp.bin"
    cmp "$work/served/large/big.bin" "$work/out/lftp.bin"
    measure "$w" rclone rclone copy --multi-thread-streams 0 "$rremote/large" "$work/out/rclone"
    cmp "$work/served/large/big.bin" "$work/out/rclone/big.bin"
    measure "$w" ftpsync "$FTPSYNC_BIN" pull "$work/large.yaml" -q
    cmp "$work/served/large/big.bin" "$work/out/b/big.bin"

    w="push 1 file of $large_mib MiB"
    log "$w"
    prep() { rm -rf "$work/served/push"/* "$work/pushsrc/.ftpsync"; }
    config push /push "$work/pushsrc"
    measure "$w" curl curl -sS -T "$work/pushsrc/b/big.bin" "ftp://$user:$pass@$addr:$port/push/curl.bin"
    cmp "$work/served/large/big.bin" "$work/served/push/curl.bin"
    measure "$w" lftp "$work/lftp_run" "put $work/pushsrc/b/big.bin -o /push/lftp.bin"
    cmp "$work/served/large/big.bin" "$work/served/push/lftp.bin"
    measure "$w" rclone rclone copy "$work/pushsrc/b" "$rremote/push"
    cmp "$work/served/large/big.bin" "$work/served/push/big.bin"
    measure "$w" ftpsync "$FTPSYNC_BIN" push "$work/push.yaml" -q
    cmp "$work/served/large/big.bin" "$work/served/push/big.bin"
fi

if wants noop; then
    # 3. no-op pull: each tool syncs once (untimed), then the timed runs find nothing to do
    w="no-op pull, $noop_files files in $noop_folders folders"
    log "$w"
    prep() { :; }
    config noop /noop "$work/out"
    rm -rf "$work/out" && mkdir -p "$work/out"
    lftp_run "mirror /noop $work/out/lftp" >/dev/null 2>&1
    rclone copy "$rremote/noop" "$work/out/rclone" >/dev/null 2>&1
    "$FTPSYNC_BIN" pull "$work/noop.yaml" -q
    same "$work/served/noop" "$work/out/b" ftpsync
    measure "$w" lftp "$work/lftp_run" "mirror /noop $work/out/lftp"
    same "$work/served/noop" "$work/out/lftp" lftp
    measure "$w" rclone rclone copy "$rremote/noop" "$work/out/rclone"
    same "$work/served/noop" "$work/out/rclone" rclone
    measure "$w" ftpsync "$FTPSYNC_BIN" pull "$work/noop.yaml" -q
    same "$work/served/noop" "$work/out/b" ftpsync
    rm -rf "$work/out"
fi

if wants hash; then
    # 4. scan + hash of a local tree from the page cache (harness built from Sources/LocalTree)
    w="hash $hash_mib MiB ($hash_files files of 4 MiB), page cache"
    log "$w"
    hash_out=$("$root/Benchmarks/hash-tree/run.sh" "$work/hash" 2>&1)
    echo "$hash_out" >&2
    log "hash $hash_many files of 256 bytes (warm cache per file)"
    many_out=$("$root/Benchmarks/hash-tree/run.sh" "$work/hash-many" 2>&1)
    echo "$many_out" >&2
fi

# 5. planner alone (harness built from Sources/SyncCore)
plan_out=""
if wants plan; then
    log "plan $plan_entries entries"
    plan_out=$("$root/Benchmarks/planner/run.sh" "$plan_entries" 2>&1)
    echo "$plan_out" >&2
fi

# 6. peak RSS and wall time against the size of the tree (its own script, server and work folder)
scale_out=""
if wants scale; then
    log "scale: trees of $scale_sizes files"
    scale_keep=()
    [ "$keep" = 0 ] || scale_keep=(--keep)
    scale_out=$(FTPSYNC_BIN=$FTPSYNC_BIN BENCH_ADDR=$addr "$root/Benchmarks/scale/run.sh" --sizes "$scale_sizes" \
        --work "$work/scale" "${scale_keep[@]}")
fi

# 7. over a link: round trips (its own script, server, relay and work folder)
link_out=""
if wants link; then
    log "link: through latency_proxy.py at 5, 20 and 80 ms"
    link_out=$(FTPSYNC_BIN=$FTPSYNC_BIN BENCH_NO_INSTALL=1 "$root/Benchmarks/link.sh" --runs "$runs" --work "$work/link")
fi

indent() { sed 's/^/    /'; }
echo
echo "Benchmarks/run.sh $([ "$quick" = 1 ] && echo --quick) (runs: best of $runs) — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, vsftpd on loopback"
echo
if [ ${#rows[@]} -gt 0 ]; then
    echo "| workload | tool | wall s | CPU s (user+sys) | machine CPU s | peak RSS MiB | ftpsync / best peer (wall) |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
fi
if wants hash; then
    echo "hash ($hash_mib MiB, $hash_files files; ftpsync = LocalScanner, 2 hashing threads):"
    indent <<<"$hash_out"
    echo "hash ($hash_many files of 256 bytes in folders of 100):"
    indent <<<"$many_out"
fi
if wants plan; then
    echo "plan ($plan_entries remote entries in folders of 1,000; PullPlanner.plan alone):"
    indent <<<"$plan_out"
fi
if wants scale; then
    echo "$scale_out"
fi
if wants link; then
    echo "$link_out"
fi
