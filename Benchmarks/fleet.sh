#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Issue 5's figure: wall time of one `ftpsync pull` from 20 devices of 200 small files each
# (2 KB), with `--jobs 8` against `--jobs 1` (each device with its default 2 connections).
# Every device is its own pyftpdlib server on its own loopback address (127.0.1.40-59),
# answering each command after LATENCY ms (default 2: a camera on Wi-Fi; 0 = as fast as
# loopback and two cores allow, where the run is bound by CPU, not by waiting).
#
#   Benchmarks/fleet.sh [WORKDIR]        (default /tmp/ftpsync-bench-fleet)
#   FTPSYNC_BIN=path/to/ftpsync Benchmarks/fleet.sh   (skip the release build)
#   LATENCY=0 Benchmarks/fleet.sh
#
# Prints the best of 3 wall times of each and the speed-up.
#
# Issue 24's figure: N devices in one configuration, pulled in one run.
#
#   Benchmarks/fleet.sh --devices N [--jobs LIST] [--files N] [--servers N] [WORKDIR]
#       --devices N   devices in the configuration (e.g. 1000)
#       --jobs LIST   comma-separated --jobs values, one first and one no-op pull each
#                     (default: 4,8,32; 4 is ftpsync's default)
#       --files N     files of 2 KB per device (default 5), in DCIM/
#       --servers N   pyftpdlib servers the devices share (default 4), on 127.0.68.1-N;
#                     device dI is the folder /dI of server I mod N (`remote: /dI`), so
#                     every device has its own tree, connections and state
#
# The servers answer at once (no LATENCY: a server is one Python process, and a wait per
# reply would hold up every device it serves) and take up to 4,096 connections each. Each
# pull runs as `ftpsync pull fleet.yaml --jobs J >report.txt 2>progress.txt` (the text
# report and the line progress of a pipe) under `/usr/bin/time -v` (CPU time, peak RSS) and
# under strace, which holds ftpsync's exit_group(2) for 0.2 s and nothing else; meanwhile its
# threads (/proc/PID/status) and open descriptors (/proc/PID/fd) are read every 20 ms: the
# peak of each, the descriptors at the first reading (the start), and the threads and
# descriptors at exit_group (the end; the wall time stops there). A pull must exit 0 and
# leave every device's files, byte for byte; else the script stops. Needs GNU time and
# strace (installed with apt-get when missing).
# Prints one table row per pull (logins: USER commands the servers got; 421: connections they
# refused for being full; the 1-minute load average after the pull); the work folder keeps
# samples.tsv (the same, RSS in KiB) and fds-end-JOBS-RUN.txt (what was open at exit).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=/tmp/ftpsync-bench-fleet
many=0
jobs_list=4,8,32
many_files=5
servers=4
while [ $# -gt 0 ]; do
    case $1 in
        --devices) many=${2:?--devices needs N}; shift ;;
        --jobs) jobs_list=${2:?--jobs needs LIST}; shift ;;
        --files) many_files=${2:?--files needs N}; shift ;;
        --servers) servers=${2:?--servers needs N}; shift ;;
        -h | --help) sed -n '4,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
        -*) echo "fleet.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) work=$1 ;;
    esac
    shift
done
for n in "$many" "$many_files" "$servers"; do
    [[ $n =~ ^[0-9]+$ ]] || { echo "fleet.sh: '$n' is not a number" >&2; exit 2; }
done
[[ $jobs_list =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "fleet.sh: bad --jobs '$jobs_list'" >&2; exit 2; }
if [ "$servers" -lt 1 ] || [ "$servers" -gt 254 ]; then echo "fleet.sh: --servers must be 1-254" >&2; exit 2; fi
devices=20
files=200
latency=${LATENCY:-2}
if [ -z "${FTPSYNC_BIN:-}" ]; then
    (cd "$root" && swift build -c release --product ftpsync >/dev/null)
    FTPSYNC_BIN="$root/.build/release/ftpsync"
fi

pids=()
cleanup() { [ ${#pids[@]} -eq 0 ] || "$root/scripts/ftp-server.sh" stop "${pids[@]}" >/dev/null 2>&1 || true; }
trap cleanup EXIT

# measure JOBS RUN: one pull of the whole fleet, sampled; prints a table row and appends
# the same to samples.tsv.
measure() {
    local jobs=$1 run=$2 log
    for log in "$work"/s*.log; do : >"$log"; done
    /usr/bin/python3 - "$FTPSYNC_BIN" "$work" "$jobs" <<'PY' >"$work/sample.txt"
import os, subprocess, sys, time
binary, work, jobs = sys.argv[1], sys.argv[2], sys.argv[3]
timefile = work + "/time.txt"
# strace holds ftpsync's exit_group(2) for 0.2 s: time enough to read, at the syscall, the
# descriptors and threads it ends with. It traces the main thread only (no -f).
hold = ["strace", "-qq", "-o", "/dev/null", "-e", "trace=exit_group", "-e", "inject=exit_group:delay_enter=200000"]

def listing(pid, names):
    found = []
    for fd in sorted(names, key=int):
        try:
            found.append("%s -> %s" % (fd, os.readlink("/proc/%d/fd/%s" % (pid, fd))))
        except OSError:
            pass
    return found

with open(work + "/report.txt", "wb") as out, open(work + "/progress.txt", "wb") as err:
    start = time.monotonic()
    proc = subprocess.Popen(
        ["/usr/bin/time", "-v", "-o", timefile] + hold + [binary, "pull", work + "/fleet.yaml", "--jobs", jobs],
        stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    child = None
    while child is None and proc.poll() is None:   # ftpsync, under time and strace
        pids = [proc.pid]
        while pids and child is None:
            pid = pids.pop()
            try:
                if os.readlink("/proc/%d/exe" % pid) == os.path.realpath(binary):
                    child = pid
                else:
                    pids += [int(k) for k in open("/proc/%d/task/%d/children" % (pid, pid)).read().split()]
            except OSError:
                pass
        if child is None:
            time.sleep(0.0005)
    first = end = None
    peak_threads = peak_fds = samples = 0
    while child is not None:
        try:
            call = open("/proc/%d/syscall" % child).read().split()[0]
            status = open("/proc/%d/status" % child).read()
            threads = int(status.split("\nThreads:\t")[1].split("\n")[0])
            names = os.listdir("/proc/%d/fd" % child)
        except (OSError, IndexError):
            break
        now = time.monotonic()
        samples += 1
        if first is None:
            first = len(names)
        if call == "231":   # exit_group: what it ends with
            end = (now, threads, len(names), listing(child, names))
            break
        peak_threads, peak_fds = max(peak_threads, threads), max(peak_fds, len(names))
        time.sleep(0.02)
    code = proc.wait()
    wall = (end[0] if end else time.monotonic()) - start
usage = {l.split(":")[0].strip(): l.rsplit(":", 1)[1].strip() for l in open(timefile) if ":" in l}
rss = int(usage["Maximum resident set size (kbytes)"])
cpu = float(usage["User time (seconds)"]) + float(usage["System time (seconds)"])
with open(work + "/fds-end.txt", "w") as out:
    out.write("".join(line + "\n" for line in (end[3] if end else [])))
print(code, "%.2f" % wall, "%.2f" % cpu, rss, peak_threads, first, peak_fds, end[2] if end else -1, end[1] if end else -1, samples)
PY
    local code wall cpu rss threads fd_start fd_peak fd_end threads_end samples logins refused load
    read -r code wall cpu rss threads fd_start fd_peak fd_end threads_end samples <"$work/sample.txt"
    load=$(cut -d' ' -f1 /proc/loadavg)
    logins=$(cat "$work"/s*.log | grep -c ' CMD USER ' || true)
    refused=$(cat "$work"/s*.log | grep -c ' REPLY 421' || true)
    if [ "$code" != 0 ]; then
        echo "pull --jobs $jobs ($run) exited $code:" >&2
        tail -20 "$work/report.txt" >&2
        exit 1
    fi
    # Every device's files, byte for byte, and nothing else.
    /usr/bin/python3 - "$work" "$many" "$servers" <<'PY' || exit 1
import os, sys
work, count, servers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
width = len(str(count - 1))
total = 0
for i in range(count):
    name = "d%0*d" % (width, i)
    served = "%s/served/s%d/%s" % (work, i % servers + 1, name)
    mine = "%s/out/%s" % (work, name)
    for folder, subfolders, names in os.walk(mine):
        subfolders[:] = [s for s in subfolders if s != ".ftpsync"]
        for n in names:
            path = os.path.join(folder, n)
            twin = served + path[len(mine):]
            if not os.path.isfile(twin) or open(twin, "rb").read() != open(path, "rb").read():
                sys.exit("%s: %s differs from the server's" % (name, path))
            total += 1
    want = sum(len(n) for _, _, n in os.walk(served))
    have = sum(len(n) for f, s, n in os.walk(mine) if "/.ftpsync" not in f + "/")
    if want != have:
        sys.exit("%s: %d files on the server, %d here" % (name, want, have))
if total != count * int(os.environ["FILES"]):
    sys.exit("%d files arrived, %d expected" % (total, count * int(os.environ["FILES"])))
PY
    printf '| %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s |\n' \
        "$many" "$jobs" "$run" "$wall" "$cpu" $(((rss + 512) / 1024)) "$threads" "$threads_end" "$fd_start" "$fd_peak" \
        "$fd_end" "$logins" "$refused" "$(wc -l <"$work/report.txt")" "$(wc -l <"$work/progress.txt")" "$load"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$many" "$jobs" "$run" "$wall" \
        "$cpu" "$rss" "$threads" "$threads_end" "$fd_start" "$fd_peak" "$fd_end" "$samples" "$logins" "$refused" \
        "$(wc -l <"$work/report.txt")" "$(wc -l <"$work/progress.txt")" "$load" >>"$work/samples.tsv"
    cp "$work/fds-end.txt" "$work/fds-end-$jobs-$run.txt"
}

if [ "$many" -gt 0 ]; then
    if [ ! -x /usr/bin/time ] || ! command -v strace >/dev/null; then
        apt-get install -y time strace >/dev/null || { echo "fleet.sh: needs GNU time and strace" >&2; exit 1; }
    fi
    rm -rf "$work" && mkdir -p "$work/served"
    config="$work/fleet.yaml"
    ports=()
    for s in $(seq 1 "$servers"); do
        mkdir -p "$work/served/s$s"
        read -r pid port < <("$root/scripts/ftp-server.sh" start pyftpdlib "$work/served/s$s" "127.0.68.$s" 0 \
            bench benchpw --log "$work/s$s.log" --max-cons 4096 2>/dev/null)
        pids+=("$pid")
        ports+=("$port")
    done
    FILES=$many_files /usr/bin/python3 - "$work" "$many" "$servers" "${ports[@]}" <<'PY'
import os, sys
work, count, servers, ports = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
width = len(str(count - 1))
with open(work + "/fleet.yaml", "w") as config:
    config.write("local: %s/out\ndevices:\n" % work)
    for i in range(count):
        name, server = "d%0*d" % (width, i), i % servers + 1
        folder = "%s/served/s%d/%s/DCIM" % (work, server, name)
        os.makedirs(folder)
        for f in range(int(os.environ["FILES"])):
            with open("%s/f%d.jpg" % (folder, f), "wb") as out:
                out.write(os.urandom(2048))
        config.write("  - {name: %s, host: 127.0.68.%d, port: %s, user: bench, password: benchpw, remote: /%s}\n"
                     % (name, server, ports[server - 1], name))
PY
    chmod 600 "$config"
    export FILES=$many_files
    printf '%d devices x %d files of 2 KB, %d pyftpdlib servers (loopback, no wait per reply):\n' \
        "$many" "$many_files" "$servers"
    echo '| devices | jobs | run | wall s | CPU s | peak RSS MiB | peak threads | threads at exit | fds at start | peak fds | fds at exit | logins | 421 replies | report / progress lines | load average |'
    echo '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|'
    : >"$work/samples.tsv"
    for jobs in ${jobs_list//,/ }; do
        rm -rf "$work/out"
        measure "$jobs" first
        measure "$jobs" no-op
    done
    exit 0
fi

rm -rf "$work" && mkdir -p "$work/served"
config="$work/fleet.yaml"
printf 'local: %s/out\ndevices:\n' "$work" >"$config"
chmod 600 "$config"
for d in $(seq 0 $((devices - 1))); do
    served="$work/served/d$d"
    mkdir -p "$served/DCIM"
    for f in $(seq 0 $((files - 1))); do head -c 2048 /dev/urandom >"$served/DCIM/f$f.jpg"; done
    addr="127.0.1.$((40 + d))"
    read -r pid port < <("$root/scripts/ftp-server.sh" start pyftpdlib "$served" "$addr" 0 bench benchpw \
        --log "$work/d$d.log" --latency "$latency" 2>/dev/null)
    pids+=("$pid")
    printf '  - {name: d%s, host: %s, port: %s, user: bench, password: benchpw}\n' "$d" "$addr" "$port" >>"$config"
done

best() {   # best JOBS: best wall time of 3 full pulls into an empty tree
    local b=999999 s e
    for _ in 1 2 3; do
        rm -rf "$work/out"
        s=$(date +%s.%N)
        "$FTPSYNC_BIN" pull "$config" -q --jobs "$1" >"$work/run.txt" 2>&1 || {
            echo "pull --jobs $1 failed:" >&2
            grep -v "no connection was left" "$work/run.txt" | head -20 >&2
            exit 1
        }
        e=$(date +%s.%N)
        b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; print (t < b ? t : b) }')
    done
    printf '%.3f' "$b"
}

one=$(best 1)
eight=$(best 8)
for d in $(seq 0 $((devices - 1))); do
    diff -r "$work/served/d$d" "$work/out/d$d" >/dev/null || { echo "d$d: mirror differs" >&2; exit 1; }
done
printf '%d devices x %d files of 2 KB (pyftpdlib, loopback, %s ms per reply), best of 3:\n' \
    "$devices" "$files" "$latency"
printf '  --jobs 1  %8s s\n  --jobs 8  %8s s\n  speed-up  %8s x\n' "$one" "$eight" \
    "$(awk -v a="$one" -v b="$eight" 'BEGIN { printf "%.2f", a / b }')"
