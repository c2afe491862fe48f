# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# shellcheck shell=bash
# shellcheck disable=SC2034 # `pid` is set here for ftp-server.sh, which sources this file
# The extra server KINDs of scripts/ftp-server.sh: proftpd, pure-ftpd and busybox ftpd.
# Sourced by ftp-server.sh (after common.sh and its own helpers), never executed.
# The binaries come from scripts/install-servers.sh (unpacked .debs, busybox built from source).

# Account whose uid/gid the virtual users of proftpd and pure-ftpd write files as.
BACKING_USER=ftpsynclab

# extra_kind KIND -> true for the kinds this file starts
extra_kind() { case $1 in proftpd | pure-ftpd | busybox) return 0 ;; *) return 1 ;; esac }

# extra_binary KIND -> the path of the binary the kind runs
extra_binary() {
    case $1 in
        proftpd) echo "$FTPSYNC_LAB/opt/proftpd/usr/sbin/proftpd" ;;
        pure-ftpd) echo "$FTPSYNC_LAB/opt/pure-ftpd/usr/sbin/pure-ftpd" ;;
        busybox) echo "$FTPSYNC_LAB/opt/busybox/busybox" ;;
    esac
}

# extra_check KIND USER -> refuse what the kind cannot do
extra_check() {
    local kind=$1 user=$2
    [ "$(id -u)" = 0 ] || die "$kind needs root (it chroots and switches users)"
    [[ $user =~ ^[a-z_][a-z0-9_-]{0,30}$ ]] ||
        die "$kind USER must be a valid user name ([a-z_][a-z0-9_-]*), not '$user'"
    if [ "$user" = anonymous ] || [ "$user" = ftp ]; then die "anonymous login: use KIND pyftpdlib"; fi
    [ "$user" != "$BACKING_USER" ] || die "USER $BACKING_USER is reserved for the lab"
}

# extra_install KIND -> the kind's binary is in place (installs it when missing)
extra_install() {
    [ -x "$(extra_binary "$1")" ] && { [ "$1" != busybox ] || [ -s "$FTPSYNC_LAB/opt/busybox/BUILD_ID" ]; } && return 0
    "$SCRIPTS_DIR/install-servers.sh" "$1" >&2 || die "install-servers.sh $1 failed"
}

# extra_start KIND RUN ROOT ADDR PORT USER PASS LOG -> starts the server in its own session
# and sets the global `pid`
extra_start() {
    local kind=$1 run=$2 root=$3 addr=$4 port=$5 user=$6 pass=$7 log=$8
    case $kind in
        proftpd) start_proftpd "$run" "$root" "$addr" "$port" "$user" "$pass" "$log" ;;
        pure-ftpd) start_pure_ftpd "$run" "$root" "$addr" "$port" "$user" "$pass" ;;
        busybox) start_busybox "$run" "$root" "$addr" "$port" "$user" "$pass" ;;
    esac
}

# backing_account ROOT -> the lab's backing account exists and owns ROOT; prints "UID GID"
backing_account() {
    ensure_system_user "$BACKING_USER" "$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
    [ "${FTPSYNC_LAB_NO_CHOWN:-0}" = 1 ] || chown -R --no-dereference "$BACKING_USER:$BACKING_USER" "$1" ||
        die "chown $1 failed"
    echo "$(id -u "$BACKING_USER") $(id -g "$BACKING_USER")"
}

start_proftpd() {
    local run=$1 root=$2 addr=$3 port=$4 user=$5 pass=$6 log=$7 ids uid gid ipv6=off
    ids=$(backing_account "$root") || exit 1
    read -r uid gid <<<"$ids"
    (
        umask 077
        printf '%s:%s:%s:%s:ftpsync lab user:%s:/bin/false\n' "$user" "$(openssl passwd -6 "$pass")" \
            "$uid" "$gid" "$root" >"$run/ftpd.passwd"
        printf '%s:x:%s:\n' "$BACKING_USER" "$gid" >"$run/ftpd.group"
    ) || die "cannot write the proftpd user files"
    [ "$addr" != ::1 ] || ipv6=on
    cat >"$run/proftpd.conf" <<EOF
# ftpsync test server, written by scripts/ftp-server.sh
ServerType              standalone
ServerName              "ftpsync test server (proftpd)"
ServerIdent             on "ftpsync test server (proftpd) ready"
DefaultServer           on
Port                    $port
DefaultAddress          $addr
SocketBindTight         on
UseIPv6                 $ipv6
UseReverseDNS           off
User                    nobody
Group                   nogroup
PidFile                 $run/proftpd.pid
ScoreboardFile          $run/proftpd.scoreboard
DelayTable              none
WtmpLog                 off
SystemLog               $run/proftpd.log
TimeoutIdle             600
MaxInstances            100
Umask                   022
AllowOverwrite          on
AllowStoreRestart       on
AllowRetrieveRestart    on
AuthPAM                 off
AuthOrder               mod_auth_file.c
AuthUserFile            $run/ftpd.passwd
AuthGroupFile           $run/ftpd.group
RequireValidShell       off
DefaultRoot             ~
# the command log: "TIME ADDR CMD LINE", like pyftpd.py's (PASS is masked by proftpd)
LogFormat               ftpsynccmd "%{epoch} %a CMD %r"
ExtendedLog             $log ALL ftpsynccmd
EOF
    if [ "${digest:-0}" = 1 ]; then
        # --digest: server-side hashes (HASH, draft-bryan-ftpext-hash; XSHA256, XSHA1, XMD5, XCRC)
        printf '%s\n' "ModulePath $FTPSYNC_LAB/opt/proftpd/usr/lib/proftpd" "LoadModule mod_digest.c" \
            "<IfModule mod_digest.c>" "  DigestEngine on" "</IfModule>" >>"$run/proftpd.conf"
    fi
    if [ -n "${pasv_ports:-}" ]; then
        # --pasv-ports MIN-MAX: passive data ports only from that range (for a relay in front)
        [[ $pasv_ports =~ ^[0-9]+-[0-9]+$ ]] || die "--pasv-ports needs MIN-MAX, not '$pasv_ports'"
        printf 'PassivePorts            %s %s\n' "${pasv_ports%-*}" "${pasv_ports#*-}" >>"$run/proftpd.conf"
    fi
    local denied
    for denied in "${deny_commands[@]}"; do
        [[ $denied =~ ^[A-Za-z0-9]+$ ]] || die "--deny needs a command name, not '$denied'"
        printf '%s\n' "<Limit $denied>" "  DenyAll" "</Limit>" >>"$run/proftpd.conf"
    done
    "$(extra_binary proftpd)" -t -c "$run/proftpd.conf" >"$run/configtest.log" 2>&1 ||
        { cat "$run/configtest.log" >&2; die "proftpd rejected its configuration"; }
    setsid "$(extra_binary proftpd)" -n -q -c "$run/proftpd.conf" </dev/null >>"$run/server.log" 2>&1 3>&- &
    pid=$!
}

start_pure_ftpd() {
    local run=$1 root=$2 addr=$3 port=$4 user=$5 pass=$6 ids uid gid family=-4
    ids=$(backing_account "$root") || exit 1
    read -r uid gid <<<"$ids"
    # PureDB line written directly with SHA-512 crypt: pure-pw's argon2id costs ~3 s per login.
    (
        umask 077
        printf '%s:%s:%s:%s::%s/./::::::::::::\n' "$user" "$(openssl passwd -6 "$pass")" "$uid" "$gid" "$root" \
            >"$run/pureftpd.passwd"
    ) || die "cannot write the pure-ftpd user file"
    "$FTPSYNC_LAB/opt/pure-ftpd/usr/bin/pure-pw" mkdb "$run/pureftpd.pdb" -f "$run/pureftpd.passwd" ||
        die "pure-pw mkdb failed"
    [ "$addr" != ::1 ] || family=-6
    # -H no DNS, -A chroot everyone, -j make home, -f none: no syslog (errors to stderr),
    # -E no anonymous, -l virtual users from the PureDB
    setsid "$(extra_binary pure-ftpd)" -S "$addr,$port" -H -A -j -U 133:022 -g "$run/pure-ftpd.pid" \
        -f none -c 200 -C 200 -I 10 "$family" -l "puredb:$run/pureftpd.pdb" -E ${list_limit:+-L "$list_limit"} \
        </dev/null >>"$run/server.log" 2>&1 3>&- &
    pid=$!
}

start_busybox() {
    local run=$1 root=$2 addr=$3 port=$4 user=$5 pass=$6 bb
    bb=$(extra_binary busybox)
    # busybox checks /etc/shadow itself: ensure_system_user writes a hash it reads
    ensure_system_user "$user" "$pass"
    [ "${FTPSYNC_LAB_NO_CHOWN:-0}" = 1 ] || chown -R --no-dereference "$user:$user" "$root" ||
        die "chown $root failed"
    # tcpsvd: one ftpd per connection, -E no environment, no -h (no DNS); ftpd: -w writable,
    # -vv every command to the log (stderr); names printed as UTF-8, unescaped (C.UTF-8)
    LC_ALL=C.UTF-8 LANG=C.UTF-8 setsid "$bb" tcpsvd -vE -c 200 -C 200 "$addr" "$port" \
        "$bb" ftpd -w -vv -t 600 -T 7200 "$root" </dev/null >>"$run/server.log" 2>&1 3>&- &
    pid=$!
}
