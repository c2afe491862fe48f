#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Start and stop FTP servers on loopback for ftpsync's tests and demo.
# Run `scripts/ftp-server.sh --help` for the interface; docs/testing.md explains it.
set -uo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=scripts/lab-servers.sh
. "$(dirname "$0")/lab-servers.sh"

usage() {
    cat >&2 <<'EOF'
usage:
  ftp-server.sh start KIND ROOT ADDR PORT USER PASS [options]
      KIND  pyftpdlib | vsftpd | proftpd | pure-ftpd | busybox
            (the last three: scripts/install-servers.sh; only --log, --digest,
            --deny and --pasv-ports (proftpd), --owner and --timeout apply to them)
      ROOT  folder to serve (created if missing)
      ADDR  127.x.y.z or ::1 (anything else is refused)
      PORT  control port; 0 = pick a free one (then stdout is "PID PORT")
      USER  login name (pyftpdlib also takes "anonymous"); PASS its password
    Prints the server's PID on stdout once the server answers with 220, and
    nothing else (progress and errors go to stderr). Exit 1 if it did not start.
    options:
      --log FILE          command log (appended to; default RUN/commands.log)
      --peer-log FILE     pyftpdlib: append "control IP" per control connection and
                          "data IP" per passive data connection accepted (IP = the peer's,
                          e.g. a proxy's outgoing address); the first line is this script's
                          own start-up probe (control 127.0.0.1 or ::1): truncate the file to drop it
      --throttle BPS      at most BPS bytes per second per data connection
      --masquerade ADDR   PASV replies advertise ADDR (loopback only)
      --no-epsv-mlsd      pyftpdlib: no EPSV/MLSD/MLST; vsftpd: EPSV denied (550)
      --drop-after BYTES  pyftpdlib: cut the data connection of each RETR after BYTES
      --drop-count K      pyftpdlib: cut only the first K RETRs (with --drop-after)
      --drop-upload-after BYTES  pyftpdlib: cut the data connection of each STOR/APPE
                          once BYTES have arrived
      --owner PID         stop the server when process PID is gone
      --raw-names         pyftpdlib: send and accept names as raw bytes (GBK, latin1
                          names on disk), not '?' for bytes that are not UTF-8
      --extra-user NAME:PASS:ROOT
                          pyftpdlib: one more login with its own root (repeatable)
      --max-cons N        pyftpdlib, vsftpd: at most N connections at once (then 421;
                          pyftpdlib counts data connections and listeners too,
                          vsftpd control connections only)
      --no-eprt           pyftpdlib: no EPRT (active mode falls back to PORT)
      --ignore-rest       pyftpdlib: REST answered 350 but every RETR sent from byte 0
      --latency MS        pyftpdlib: each reply waits MS ms (a slow device)
      --timeout SECONDS   how long to wait for the 220 banner (default 30)
      --digest            proftpd: load mod_digest (HASH, XSHA256, XSHA1, XMD5, XCRC)
      --deny CMD          proftpd: refuse command CMD to everyone (<Limit CMD> DenyAll; repeatable)
      --list-limit F:D    pure-ftpd: list at most F files, D folders deep (-L; then
                          "226 Output truncated to F matches")
      --tls explicit|implicit
                          FTPS with a self-signed certificate made by openssl (SAN: ADDR,
                          127.0.0.1, ::1, localhost), TLS required for login and data;
                          certificate RUN/cert.pem, its SHA-256 in RUN/info as
                          FINGERPRINT=sha256:AB:... pyftpdlib: explicit only.
      --ssl-reuse yes|no  vsftpd: require_ssl_reuse (default yes, vsftpd's own default)
      --tls-max 1.2|1.3   highest TLS version the server accepts (default 1.3)
      --pasv-ports MIN-MAX
                          pyftpdlib, vsftpd, proftpd: passive data ports only from MIN to MAX
                          (for a relay in front of the server: netsim/latency_proxy.py)
  ftp-server.sh stop PID... | --all
      SIGTERM to the server's process group and all its descendants, SIGKILL to
      whatever is left after 2 s. Only PIDs this script started are accepted.
  ftp-server.sh commands LOGFILE
      The client commands recorded in a command log (either KIND), one per line,
      exactly as received, PASS shown as "PASS ****".
  ftp-server.sh list
      Running servers, one per line: PID KIND ADDR PORT ROOT LOG
  ftp-server.sh cleanup-users
      Delete the system accounts made for vsftpd (and its PAM file). Stop servers first.
RUN = $FTPSYNC_LAB/run/KIND-ADDR-PORT (default FTPSYNC_LAB=/tmp/ftpsync-lab):
      server.log (server output), commands.log, pid, info, config files.
EOF
    exit 2
}

USER_MARK="ftpsync test user"
PAM_SERVICE=ftpsync-lab-vsftpd

# ------------------------------------------------------------------ helpers

# probe_wait ADDR PORT PID TIMEOUT -> 0 when a "220" banner arrives; 1 on timeout
# or when PID exits. Prints the banner line on stdout.
probe_wait() {
    "$SYS_PYTHON" - "$@" <<'PY'
import os, socket, sys, time
import ssl
addr, port, pid, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
implicit = len(sys.argv) > 5 and sys.argv[5] == "implicit"
context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
end = time.monotonic() + limit
while time.monotonic() < end:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit(3)
    try:
        with socket.create_connection((addr, port), timeout=2) as plain:
            s = context.wrap_socket(plain) if implicit else plain
            s.settimeout(3)
            line = s.makefile("rb").readline().decode("utf-8", "replace").strip()
            if line.startswith("220"):
                print(line)
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit(1)
PY
}

# port_open ADDR PORT -> something accepts connections there
port_open() {
    "$SYS_PYTHON" -c '
import socket, sys
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=2).close()
except OSError:
    sys.exit(1)' "$1" "$2"
}

# free_port ADDR -> a port nobody listens on at ADDR (asked from the kernel)
free_port() {
    "$SYS_PYTHON" -c '
import socket, sys
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
s = socket.socket(fam, socket.SOCK_STREAM)
s.bind((sys.argv[1], 0))
print(s.getsockname()[1])
s.close()' "$1"
}

is_number() { [[ $1 =~ ^[0-9]+$ ]]; }

# ensure_system_user NAME PASS -> a login account for vsftpd and busybox ftpd, marked with
# USER_MARK. The hash is SHA-512 crypt for both: busybox reads /etc/shadow itself and knows
# DES, MD5 and SHA-256/512 crypt, not Debian's default yescrypt, and PAM reads them all; a
# second method written by one kind would lock the other kind's running servers out.
# An existing account without the mark is never touched.
ensure_system_user() {
    local u=$1 p=$2 gecos
    (
        flock 8
        if getent passwd "$u" >/dev/null; then
            gecos=$(getent passwd "$u" | cut -d: -f5)
            [ "$gecos" = "$USER_MARK" ] ||
                die "system user '$u' exists and was not made by these scripts; choose another USER"
        else
            say "creating system user $u (vsftpd logs in real accounts)"
            useradd --user-group --no-create-home --home-dir / --shell /usr/sbin/nologin \
                --comment "$USER_MARK" "$u" || die "useradd $u failed"
        fi
        printf '%s:%s\n' "$u" "$p" | chpasswd -c SHA512 || die "chpasswd for $u failed"
    ) 8>"$FTPSYNC_LAB/cache/users.lock" || exit 1
}

# ensure_pam_file -> our own PAM service: password check against /etc/shadow only
# (no pam_shells, so accounts with a nologin shell can log in; no ftpusers list)
ensure_pam_file() {
    local f=/etc/pam.d/$PAM_SERVICE want
    want='# written by ftpsync scripts/ftp-server.sh for its test vsftpd
auth     required pam_unix.so
account  required pam_unix.so
session  required pam_permit.so'
    [ -f "$f" ] && [ "$(cat "$f")" = "$want" ] && return 0
    printf '%s\n' "$want" >"$f" || die "cannot write $f"
}

# ------------------------------------------------------------------ start

cmd_start() {
    [ $# -ge 6 ] || usage
    local kind=$1 root=$2 addr=$3 port=$4 user=$5 pass=$6
    shift 6
    local log="" throttle=0 masquerade="" no_epsv_mlsd=0 drop_after="" drop_count="" drop_upload="" owner="" timeout=30 raw_names=0
    local tls="" ssl_reuse=yes tls_max=1.3 max_cons="" extra_users=() no_eprt=0 latency="" peer_log=""
    local digest=0 # read by start_proftpd (scripts/lab-servers.sh)
    local ignore_rest=0 deny_commands=() # deny_commands: read by start_proftpd too
    list_limit=""  # global: read by start_pure_ftpd
    pasv_ports=""  # global: read by write_vsftpd_conf and start_proftpd
    while [ $# -gt 0 ]; do
        case $1 in
            --log) log=${2:?--log needs FILE}; shift ;;
            --peer-log) peer_log=${2:?--peer-log needs FILE}; shift ;;
            --throttle) throttle=${2:?--throttle needs BPS}; shift ;;
            --masquerade) masquerade=${2:?--masquerade needs ADDR}; shift ;;
            --no-epsv-mlsd) no_epsv_mlsd=1 ;;
            --drop-after) drop_after=${2:?--drop-after needs BYTES}; shift ;;
            --drop-count) drop_count=${2:?--drop-count needs K}; shift ;;
            --drop-upload-after) drop_upload=${2:?--drop-upload-after needs BYTES}; shift ;;
            --owner) owner=${2:?--owner needs PID}; shift ;;
            --raw-names) raw_names=1 ;;
            --extra-user) extra_users+=("${2:?--extra-user needs NAME:PASS:ROOT}"); shift ;;
            --max-cons) max_cons=${2:?--max-cons needs N}; shift ;;
            --no-eprt) no_eprt=1 ;;
            --digest) digest=1 ;;
            --ignore-rest) ignore_rest=1 ;;
            --deny) deny_commands+=("${2:?--deny needs CMD}"); shift ;;
            --latency) latency=${2:?--latency needs MS}; shift ;;
            --list-limit) list_limit=${2:?--list-limit needs FILES:DEPTH}; shift ;;
            --pasv-ports) pasv_ports=${2:?--pasv-ports needs MIN-MAX}; shift ;;
            --timeout) timeout=${2:?--timeout needs SECONDS}; shift ;;
            --tls) tls=${2:?--tls needs explicit or implicit}; shift ;;
            --ssl-reuse) ssl_reuse=${2:?--ssl-reuse needs yes or no}; shift ;;
            --tls-max) tls_max=${2:?--tls-max needs 1.2 or 1.3}; shift ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done

    case $kind in pyftpdlib | vsftpd | proftpd | pure-ftpd | busybox) ;;
        *) die "KIND must be pyftpdlib, vsftpd, proftpd, pure-ftpd or busybox, not '$kind'" ;;
    esac
    is_loopback "$addr" || die "ADDR $addr is not loopback (127.x.y.z or ::1): refused"
    if ! is_number "$port" || [ "$port" -gt 65535 ]; then die "bad PORT '$port'"; fi
    is_number "$throttle" || die "bad --throttle '$throttle'"
    is_number "$timeout" || die "bad --timeout '$timeout'"
    [ -z "$list_limit" ] || [[ $list_limit =~ ^[0-9]+:[0-9]+$ ]] || die "bad --list-limit '$list_limit'"
    [ -z "$list_limit" ] || [ "$kind" = pure-ftpd ] || die "--list-limit needs KIND pure-ftpd"
    [ -z "$drop_after" ] || is_number "$drop_after" || die "bad --drop-after '$drop_after'"
    [ -z "$drop_count" ] || is_number "$drop_count" || die "bad --drop-count '$drop_count'"
    [ -z "$owner" ] || is_number "$owner" || die "bad --owner '$owner'"
    [ -z "$masquerade" ] || is_loopback "$masquerade" || die "--masquerade $masquerade is not loopback: refused"
    [ -n "$user" ] || die "USER is empty"
    case $tls in "" | explicit | implicit) ;; *) die "--tls must be explicit or implicit, not '$tls'" ;; esac
    case $ssl_reuse in yes | no) ;; *) die "--ssl-reuse must be yes or no" ;; esac
    case $tls_max in 1.2 | 1.3) ;; *) die "--tls-max must be 1.2 or 1.3" ;; esac
    [ "$kind" = vsftpd ] || [ "$tls" != implicit ] || die "--tls implicit needs KIND vsftpd"
    [ -z "$peer_log" ] || [ "$kind" = pyftpdlib ] || die "--peer-log needs KIND pyftpdlib"
    if [ "$kind" = vsftpd ]; then
        [ -z "$drop_after" ] || die "--drop-after needs KIND pyftpdlib"
        [[ $user =~ ^[a-z_][a-z0-9_-]{0,30}$ ]] ||
            die "vsftpd USER must be a valid system user name ([a-z_][a-z0-9_-]*), not '$user'"
        if [ "$user" = anonymous ] || [ "$user" = ftp ]; then die "anonymous login: use KIND pyftpdlib"; fi
        [ "$(id -u)" = 0 ] || die "vsftpd needs root (it makes a system user and chroots)"
    fi

    if extra_kind "$kind"; then
        extra_check "$kind" "$user"
        if [ "$throttle" != 0 ] || [ -n "$masquerade" ] || [ $no_epsv_mlsd = 1 ] || [ -n "$drop_after" ]; then
            die "--throttle, --masquerade, --no-epsv-mlsd and --drop-after need KIND pyftpdlib or vsftpd"
        fi
    fi

    lab_dirs
    # Missing tools -> install them (idempotent, no network when present).
    if extra_kind "$kind"; then
        extra_install "$kind"
    elif [ "$kind" = vsftpd ]; then
        [ -x "$FTPSYNC_LAB/opt/vsftpd/usr/sbin/vsftpd" ] || "$SCRIPTS_DIR/install-deps.sh" >&2 ||
            die "install-deps.sh failed"
    else
        "$SYS_PYTHON" -c 'import pyftpdlib' 2>/dev/null || "$SCRIPTS_DIR/install-deps.sh" >&2 ||
            die "install-deps.sh failed"
    fi

    mkdir -p "$root" || die "cannot create ROOT $root"
    root=$(cd "$root" && pwd -P) || die "cannot enter ROOT"
    [ "$root" != / ] || die "refusing to serve /"

    local auto_port=0
    if [ "$port" = 0 ]; then
        port=$(free_port "$addr") || die "no free port on $addr"
        auto_port=1
    elif port_open "$addr" "$port"; then
        die "$addr:$port is already in use"
    fi

    local run=$FTPSYNC_LAB/run/$kind-${addr//:/_}-$port
    if [ -f "$run/pid" ] && alive "$(cat "$run/pid")"; then
        die "a server from $run is still running (pid $(cat "$run/pid"))"
    fi
    rm -rf "$run"
    mkdir -p "$run" || die "cannot create $run"
    if [ -z "$log" ]; then
        log=$run/commands.log
    else
        mkdir -p "$(dirname "$log")" || die "cannot create the folder of $log"
        log=$(cd "$(dirname "$log")" && pwd -P)/$(basename "$log")
    fi
    touch "$log" || die "cannot write $log"
    if [ -n "$peer_log" ]; then
        mkdir -p "$(dirname "$peer_log")" || die "cannot create the folder of $peer_log"
        peer_log=$(cd "$(dirname "$peer_log")" && pwd -P)/$(basename "$peer_log")
        touch "$peer_log" || die "cannot write $peer_log"
    fi
    local fingerprint="" openssl_conf=""
    if [ -n "$tls" ]; then
        make_certificate "$run" "$addr" || die "openssl could not make a certificate"
        fingerprint=$(openssl x509 -in "$run/cert.pem" -noout -fingerprint -sha256 | sed 's/^[^=]*=/sha256:/')
        # the version range, through a private OpenSSL configuration (vsftpd has no knob)
        openssl_conf=$run/openssl.cnf
        write_openssl_conf "$openssl_conf" "$tls_max"
    fi

    local pid
    if [ "$kind" = pyftpdlib ]; then
        local args=(--root "$root" --addr "$addr" --port "$port" --user "$user" --command-log "$log")
        [ "$throttle" = 0 ] || args+=(--throttle "$throttle")
        [ -z "$masquerade" ] || args+=(--masquerade "$masquerade")
        [ $no_epsv_mlsd = 0 ] || args+=(--no-epsv-mlsd)
        [ -z "$drop_after" ] || args+=(--drop-after "$drop_after")
        [ -z "$drop_count" ] || args+=(--drop-count "$drop_count")
        [ -z "$drop_upload" ] || args+=(--drop-upload-after "$drop_upload")
        [ $raw_names = 0 ] || args+=(--raw-names)
        [ -z "$max_cons" ] || args+=(--max-cons "$max_cons")
        [ $no_eprt = 0 ] || args+=(--no-eprt)
        [ $ignore_rest = 0 ] || args+=(--ignore-rest)
        [ -z "$latency" ] || args+=(--latency "$latency")
        [ -z "$pasv_ports" ] || args+=(--passive-ports "$pasv_ports")
        [ -z "$peer_log" ] || args+=(--peer-log "$peer_log")
        for extra in "${extra_users[@]}"; do args+=(--extra-user "$extra"); done
        [ -z "$tls" ] || args+=(--tls-cert "$run/cert.pem" --tls-key "$run/key.pem")
        # setsid: own session and process group, so the PID is also the group id.
        # 3>&- : the server must not hold the caller's stdout (a $(...) pipe) open.
        FTPSYNC_LAB_PASS=$pass OPENSSL_CONF=$openssl_conf setsid "$SYS_PYTHON" "$SCRIPTS_DIR/pyftpd.py" "${args[@]}" \
            </dev/null >>"$run/server.log" 2>&1 3>&- &
        pid=$!
    elif extra_kind "$kind"; then
        extra_start "$kind" "$run" "$root" "$addr" "$port" "$user" "$pass" "$log"
    else
        ensure_system_user "$user" "$pass"
        ensure_pam_file
        [ "${FTPSYNC_LAB_NO_CHOWN:-0}" = 1 ] || chown -R --no-dereference "$user:$user" "$root" ||
            die "chown $root failed"
        # vsftpd enters local_root as USER before its chroot ("500 OOPS: cannot change
        # directory" at login otherwise): every parent folder must be searchable by USER
        runuser -u "$user" -- test -r "$root" -a -x "$root" ||
            die "user $user cannot reach $root: a parent folder is not searchable by others (mktemp -d makes 0700 folders; chmod 755 it)"
        write_vsftpd_conf "$run" "$root" "$addr" "$port" "$log" "$throttle" "$masquerade" "$no_epsv_mlsd"
        [ -z "$tls" ] || write_vsftpd_tls "$run" "$tls" "$ssl_reuse" >>"$run/vsftpd.conf"
        # vsftpd reports start-up errors ("500 OOPS") on fd 0, inetd style: keep them in a file.
        OPENSSL_CONF=$openssl_conf setsid "$FTPSYNC_LAB/opt/vsftpd/usr/sbin/vsftpd" "$run/vsftpd.conf" \
            0<>"$run/vsftpd-fd0.log" >>"$run/server.log" 2>&1 3>&- &
        pid=$!
    fi

    local banner rc
    banner=$(probe_wait "$addr" "$port" "$pid" "$timeout" "${tls:-none}")
    rc=$?
    if [ $rc != 0 ]; then
        if [ $rc = 3 ]; then say "$kind exited during start-up"; else say "no 220 banner from $addr:$port within ${timeout}s"; fi
        kill -TERM -- "-$pid" 2>/dev/null
        tail -n 20 "$run/server.log" "$run"/vsftpd-fd0.log 2>/dev/null >&2
        die "$kind did not start (files in $run)"
    fi
    echo "$pid" >"$run/pid"
    {
        echo "KIND=$kind"
        echo "PID=$pid"
        echo "ADDR=$addr"
        echo "PORT=$port"
        echo "ROOT=$root"
        echo "USER=$user"
        echo "LOG=$log"
        echo "TLS=${tls:-none}"
        if [ -n "$tls" ]; then
            echo "CERT=$run/cert.pem"
            echo "FINGERPRINT=$fingerprint"
        fi
    } >"$run/info"
    if [ -n "$owner" ]; then
        # watchdog: stop the server once its owner is gone (e.g. a crashed test run)
        # shellcheck disable=SC2016 # expanded by the inner bash
        setsid bash -c 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
                        kill -0 "$2" 2>/dev/null && exec "$3" stop "$2"' \
            watchdog "$owner" "$pid" "$SCRIPTS_DIR/ftp-server.sh" </dev/null >/dev/null 2>&1 3>&- &
    fi
    say "$kind pid $pid on $addr:$port root=$root log=$log ($banner)"
    [ -z "$tls" ] || say "TLS $tls, certificate $run/cert.pem, $fingerprint (also in $run/info)"
    if [ $auto_port = 1 ]; then echo "$pid $port" >&3; else echo "$pid" >&3; fi
}

# write_vsftpd_conf RUN ROOT ADDR PORT LOG THROTTLE MASQUERADE NO_EPSV
write_vsftpd_conf() {
    local run=$1 root=$2 addr=$3 port=$4 log=$5 throttle=$6 masquerade=$7 no_epsv=$8
    mkdir -p "$run/empty" && chmod 755 "$run/empty"
    {
        echo "# ftpsync test server, written by scripts/ftp-server.sh"
        if [ "$addr" = ::1 ]; then
            printf 'listen=NO\nlisten_ipv6=YES\nlisten_address6=%s\n' "$addr"
        else
            printf 'listen=YES\nlisten_ipv6=NO\nlisten_address=%s\n' "$addr"
        fi
        cat <<EOF
listen_port=$port
# in the foreground: the script starts it in the background and knows its PID
background=NO
# the seccomp sandbox of vsftpd 3.0.3 kills sessions on LIST/STOR here
seccomp_sandbox=NO
# no namespaces: unprivileged CI containers may not allow them
isolate=NO
isolate_network=NO
secure_chroot_dir=$run/empty
pam_service_name=$PAM_SERVICE
tcp_wrappers=NO
anonymous_enable=NO
local_enable=YES
local_root=$root
chroot_local_user=YES
allow_writeable_chroot=YES
write_enable=YES
local_umask=022
mdtm_write=YES
use_localtime=NO
pasv_enable=YES
connect_from_port_20=NO
max_clients=${max_cons:-0}
max_per_ip=0
delay_failed_login=0
idle_session_timeout=600
data_connection_timeout=300
dirmessage_enable=NO
ftpd_banner=ftpsync test server (vsftpd) ready
# the whole dialogue goes to the command log
xferlog_enable=YES
xferlog_std_format=NO
dual_log_enable=NO
log_ftp_protocol=YES
vsftpd_log_file=$log
EOF
        [ "$throttle" = 0 ] || echo "local_max_rate=$throttle"
        [ -z "$masquerade" ] || printf 'pasv_address=%s\npasv_addr_resolve=NO\n' "$masquerade"
        [ -z "$pasv_ports" ] || printf 'pasv_min_port=%s\npasv_max_port=%s\n' "${pasv_ports%-*}" "${pasv_ports#*-}"
        [ "$no_epsv" = 0 ] || echo "cmds_denied=EPSV,MLSD,MLST"
    } >"$run/vsftpd.conf"
}

# make_certificate RUN ADDR -> RUN/cert.pem and RUN/key.pem, self-signed, valid for ADDR
make_certificate() {
    local run=$1 addr=$2
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=ftpsync test server" \
        -addext "subjectAltName=IP:$addr,IP:127.0.0.1,IP:::1,DNS:localhost" \
        -keyout "$run/key.pem" -out "$run/cert.pem" 2>/dev/null && chmod 600 "$run/key.pem"
}

# write_openssl_conf FILE MAX -> an OpenSSL configuration: TLS 1.2 at least, TLS MAX at most
write_openssl_conf() {
    cat >"$1" <<EOF
openssl_conf = ftpsync_lab
[ftpsync_lab]
ssl_conf = ftpsync_ssl
[ftpsync_ssl]
system_default = ftpsync_tls
[ftpsync_tls]
MinProtocol = TLSv1.2
MaxProtocol = TLSv$2
EOF
}

# write_vsftpd_tls RUN MODE REUSE -> the TLS lines of vsftpd.conf on stdout
write_vsftpd_tls() {
    local run=$1 mode=$2 reuse=YES
    [ "$3" = yes ] || reuse=NO
    cat <<EOF
ssl_enable=YES
rsa_cert_file=$run/cert.pem
rsa_private_key_file=$run/key.pem
ssl_ciphers=HIGH
ssl_request_cert=NO
ssl_sslv2=NO
ssl_sslv3=NO
ssl_tlsv1=YES
force_local_logins_ssl=YES
force_local_data_ssl=YES
require_ssl_reuse=$reuse
EOF
    [ "$mode" != implicit ] || echo "implicit_ssl=YES"
}

# ------------------------------------------------------------------ stop

# descendants PID -> every descendant of PID (by parent links), one per line
descendants() {
    ps -e -o pid=,ppid= | awk -v top="$1" '
        { kids[$2] = kids[$2] " " $1 }
        END {
            n = split(kids[top], queue, " ")
            for (i = 1; i <= n; i++) {
                print queue[i]
                m = split(kids[queue[i]], more, " ")
                for (j = 1; j <= m; j++) queue[++n] = more[j]
            }
        }'
}

# recorded_pid PID -> the pid file of the lab server with this PID (empty if none)
recorded_pid() {
    grep -lx -- "$1" "$FTPSYNC_LAB"/run/*/pid 2>/dev/null | head -n 1
}

cmd_stop() {
    [ $# -ge 1 ] || usage
    local pids=() pid f rc=0
    if [ "$1" = --all ]; then
        for f in "$FTPSYNC_LAB"/run/*/pid; do [ -f "$f" ] && pids+=("$(cat "$f")"); done
        [ ${#pids[@]} -gt 0 ] || { say "no servers recorded"; return 0; }
    else
        pids=("$@")
    fi
    for pid in "${pids[@]}"; do
        is_number "$pid" || { say "not a PID: '$pid'"; rc=1; continue; }
        f=$(recorded_pid "$pid")
        if [ -z "$f" ]; then
            say "pid $pid was not started by ftp-server.sh (no $FTPSYNC_LAB/run/*/pid): not touched"
            rc=1
            continue
        fi
        if ! alive "$pid"; then
            say "pid $pid: not running"
            rm -f "$f"
            continue
        fi
        local kids group_lead=0 running k
        kids=$(descendants "$pid")
        [ "$(ps -o pgid= -p "$pid" | tr -d ' ')" = "$pid" ] && group_lead=1
        [ $group_lead = 0 ] || kill -TERM -- "-$pid" 2>/dev/null
        # shellcheck disable=SC2086 # kids is a list of numbers
        kill -TERM "$pid" $kids 2>/dev/null
        for _ in $(seq 1 10); do
            running=0
            for k in $pid $kids; do
                # a zombie has done its work; only its parent can reap it
                if alive "$k"; then running=1; fi
            done
            [ "$running" = 1 ] || break
            sleep 0.2
        done
        if [ "$running" = 1 ]; then
            say "pid $pid: processes left 2 s after SIGTERM (vsftpd sessions ignore it mid-transfer): SIGKILL"
            [ $group_lead = 0 ] || kill -KILL -- "-$pid" 2>/dev/null
            # shellcheck disable=SC2086
            kill -KILL "$pid" $kids 2>/dev/null
        fi
        rm -f "$f"
        say "pid $pid: stopped"
    done
    return $rc
}

# ------------------------------------------------------------------ others

cmd_commands() {
    [ $# = 1 ] || usage
    [ -f "$1" ] || die "no such log: $1"
    # pyftpd.py:  TIME SESSION CMD LINE
    # vsftpd:     DATE [pid N] [user] FTP command: Client "ADDR", "LINE"
    sed -n -E \
        -e 's/^[^ ]+ [^ ]+ CMD (.*)$/\1/p' \
        -e 's/^.*FTP command: Client "[^"]*", "(.*)"$/\1/p' "$1" |
        sed -E 's/^([Pp][Aa][Ss][Ss])( .*)?$/PASS ****/'
}

# info_value FILE KEY -> the value of KEY=... in an info file
info_value() { sed -n "s/^$2=//p" "$1" | head -n 1; }

cmd_list() {
    local f pid
    for f in "$FTPSYNC_LAB"/run/*/info; do
        [ -f "$(dirname "$f")/pid" ] || continue
        pid=$(info_value "$f" PID)
        alive "$pid" || continue
        echo "$pid $(info_value "$f" KIND) $(info_value "$f" ADDR) $(info_value "$f" PORT)" \
            "$(info_value "$f" ROOT) $(info_value "$f" LOG)"
    done
    return 0
}

cmd_cleanup_users() {
    local u rc=0
    for u in $(getent passwd | awk -F: -v m="$USER_MARK" '$5 == m {print $1}'); do
        if pgrep -u "$u" >/dev/null 2>&1; then
            say "$u still has processes: kept"
            rc=1
            continue
        fi
        userdel "$u" && say "deleted user $u"
        getent group "$u" >/dev/null && groupdel "$u" 2>/dev/null
    done
    rm -f "/etc/pam.d/$PAM_SERVICE"
    return $rc
}

[ $# -ge 1 ] || usage
sub=$1
shift
# stdout carries only the result (PID, command lines, list); keep it on fd 3.
exec 3>&1 1>&2
case $sub in
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    commands) cmd_commands "$@" >&3 ;;
    list) cmd_list >&3 ;;
    cleanup-users) cmd_cleanup_users ;;
    -h | --help | help) usage ;;
    *) usage ;;
esac
