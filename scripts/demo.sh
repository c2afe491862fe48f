#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# The README's demo: two devices with FTP servers on loopback, one `ftpsync pull`.
#
#   scripts/demo.sh            (as root on a fresh Debian 12 with the Swift toolchain)
#
# 1. installs missing packages (scripts/install-deps.sh)
# 2. builds ftpsync (swift build -c release)
# 3. makes sample content for two devices, "camera" and "nas", in demo-run/servers/
# 4. starts pyftpdlib on 127.0.0.2 (camera) and vsftpd on 127.0.0.3 (nas; pyftpdlib
#    again if vsftpd cannot start, and says so), writes demo-run/device.yaml
# 5. runs `ftpsync pull --dry-run`, `ftpsync pull`, lists demo-run/mirror, and pulls
#    a second time to show that nothing is transferred again
# The servers are stopped on exit. Exit status: ftpsync's (the first non-zero one).
# FTPSYNC_BIN=PATH uses that ftpsync binary instead of building one.
set -uo pipefail
case "${1:-}" in
"") ;;
-h | --help)
    sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//'
    exit 0
    ;;
*)
    echo "usage: scripts/demo.sh   (no options; see scripts/demo.sh --help)" >&2
    exit 2
    ;;
esac
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT" || exit 1

DEMO=$REPO_ROOT/demo-run
CAMERA_PASS=camera-demo-pw
NAS_USER=ftpsync-demo
NAS_PASS=nas-demo-pw
servers=()

if [ -t 1 ]; then BOLD=$'\033[1m' PLAIN=$'\033[0m'; else BOLD='' PLAIN=''; fi
step() { printf '\n%s== %s%s\n' "$BOLD" "$*" "$PLAIN"; }
stop_servers() {
    [ ${#servers[@]} = 0 ] || "$SCRIPTS_DIR/ftp-server.sh" stop "${servers[@]}" 2>/dev/null
    servers=()
}
trap stop_servers EXIT
trap 'exit 130' INT TERM

step "1/5 dependencies"
FTPSYNC_SKIP_EXTRA_SERVERS=1 scripts/install-deps.sh || die "installing dependencies failed"
[ -n "${FTPSYNC_BIN:-}" ] || command -v swift >/dev/null ||
    die "no swift on PATH: install the Swift 6 toolchain (https://www.swift.org/install/linux/)"

mkdir -p "$DEMO"
if [ -n "${FTPSYNC_BIN:-}" ]; then
    step "2/5 using FTPSYNC_BIN=$FTPSYNC_BIN (no build)"
    FTPSYNC=$FTPSYNC_BIN
else
    step "2/5 building ftpsync (swift build -c release, log: demo-run/build.log)"
    echo "a first build takes about 5 minutes on 2 cores; progress every 20 s:"
    swift build -c release >"$DEMO/build.log" 2>&1 &
    build_pid=$!
    while kill -0 "$build_pid" 2>/dev/null; do
        for _ in $(seq 20); do kill -0 "$build_pid" 2>/dev/null && sleep 1; done
        # SwiftPM's own progress lines: "[123/456] Compiling ..."
        progress=$(grep -o '^\[[0-9]*/[0-9]*\]' "$DEMO/build.log" | tail -n 1)
        kill -0 "$build_pid" 2>/dev/null && echo "  building ${progress:-(resolving packages)}"
    done
    if ! wait "$build_pid"; then
        tail -n 30 "$DEMO/build.log" >&2
        die "build failed, see demo-run/build.log"
    fi
    FTPSYNC=$(swift build -c release --show-bin-path)/ftpsync
fi
[ -x "$FTPSYNC" ] || die "no ftpsync binary at $FTPSYNC"
echo "built $FTPSYNC"

step "3/5 sample content for two devices (demo-run/servers/)"
rm -rf "$DEMO/servers" "$DEMO/mirror" "$DEMO/device.yaml"
scripts/make-sample-tree.sh "$DEMO/servers/camera" --seed 1 --big 3145728 || die "make-sample-tree failed"
scripts/make-sample-tree.sh "$DEMO/servers/nas" --seed 2 --big 1048576 || die "make-sample-tree failed"
echo "camera: $(find "$DEMO/servers/camera" -type f | wc -l) files, nas: $(find "$DEMO/servers/nas" -type f | wc -l) files"

step "4/5 two FTP servers on loopback"
# start KIND ROOT ADDR USER PASS -> sets STARTED="PID PORT"; port 2121 if free, else any
start() {
    local out
    if out=$("$SCRIPTS_DIR/ftp-server.sh" start "$1" "$2" "$3" 2121 "$4" "$5" 2>"$DEMO/server-start.log"); then
        STARTED="$out 2121"
    elif out=$("$SCRIPTS_DIR/ftp-server.sh" start "$1" "$2" "$3" 0 "$4" "$5" 2>>"$DEMO/server-start.log"); then
        STARTED=$out
    else
        return 1
    fi
    servers+=("${STARTED%% *}")
}
start pyftpdlib "$DEMO/servers/camera" 127.0.0.2 camera "$CAMERA_PASS" ||
    { cat "$DEMO/server-start.log" >&2; die "pyftpdlib did not start"; }
read -r _ CAMERA_PORT _ <<<"$STARTED"
echo "camera: pyftpdlib on 127.0.0.2:$CAMERA_PORT (MLSD listings)"
if start vsftpd "$DEMO/servers/nas" 127.0.0.3 "$NAS_USER" "$NAS_PASS"; then
    NAS_KIND=vsftpd
    NAS_LOGIN=$NAS_USER
else
    echo "note: vsftpd did not start (see demo-run/server-start.log); the nas runs pyftpdlib instead"
    start pyftpdlib "$DEMO/servers/nas" 127.0.0.3 nas "$NAS_PASS" ||
        { cat "$DEMO/server-start.log" >&2; die "pyftpdlib did not start for the nas"; }
    NAS_KIND=pyftpdlib
    NAS_LOGIN=nas
fi
read -r _ NAS_PORT _ <<<"$STARTED"
echo "nas:    $NAS_KIND on 127.0.0.3:$NAS_PORT$([ $NAS_KIND = vsftpd ] && echo ' (LIST listings only, no MLSD)')"

cat >"$DEMO/device.yaml" <<EOF
# Written by scripts/demo.sh: two devices on loopback.
local: ./mirror          # relative to this file: demo-run/mirror
devices:
  - name: camera
    host: 127.0.0.2
    port: $CAMERA_PORT
    user: camera
    password: $CAMERA_PASS
  - name: nas
    host: 127.0.0.3
    port: $NAS_PORT
    user: $NAS_LOGIN
    password: $NAS_PASS
EOF
# It holds passwords: readable by its owner only, or ftpsync warns (as ssh does).
chmod 600 "$DEMO/device.yaml"
echo "wrote demo-run/device.yaml (mode 600: it holds passwords):"
sed 's/^/    /' "$DEMO/device.yaml"

step "5/5 ftpsync pull"
rc=0
record() { [ "$rc" != 0 ] || rc=$1; }
echo "\$ ftpsync pull demo-run/device.yaml --dry-run     (the plan; nothing is written)"
"$FTPSYNC" pull "$DEMO/device.yaml" --dry-run
record $?
echo
echo "\$ ftpsync pull demo-run/device.yaml"
"$FTPSYNC" pull "$DEMO/device.yaml"
record $?
echo
echo "\$ find demo-run/mirror     (ftpsync's own .ftpsync/ folder left out)"
[ -d "$DEMO/mirror" ] || echo "(ftpsync made no demo-run/mirror)"
[ -d "$DEMO/mirror" ] && (cd "$DEMO" && find mirror -path 'mirror/.ftpsync' -prune -o -printf '%TY-%Tm-%Td %TH:%TM  %10s  %p\n' |
    sort -k4)
if diff -r "$DEMO/servers/camera" "$DEMO/mirror/camera" >/dev/null 2>&1 &&
    diff -r "$DEMO/servers/nas" "$DEMO/mirror/nas" >/dev/null 2>&1; then
    echo "the mirror is byte-identical to both servers' content"
else
    echo "the mirror differs from the servers' content (diff -r demo-run/servers/camera demo-run/mirror/camera)"
fi
echo
echo "\$ ftpsync pull demo-run/device.yaml     (again: everything is unchanged, nothing is transferred)"
"$FTPSYNC" pull "$DEMO/device.yaml"
record $?
stop_servers
echo
echo "demo finished; ftpsync exit status $rc. Files: demo-run/ (mirror/, servers/, device.yaml)"
exit "$rc"
