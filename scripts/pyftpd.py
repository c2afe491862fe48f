#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""Test FTP server for ftpsync, built on pyftpdlib (run by scripts/ftp-server.sh).

Runs in the foreground until SIGTERM/SIGINT. Besides a plain server it can imitate
the devices and faults the integration tests need:

  --no-epsv-mlsd        an old device: EPSV, MLSD and MLST are gone from the command
                        table (reply 500) and from FEAT.
  --latency MS          every reply waits MS milliseconds before it is sent: a slow
                        device (a camera on Wi-Fi). Blocks this server process only.
  --no-eprt            EPRT is gone (reply 500): active mode must fall back to PORT.
  --masquerade ADDR     PASV replies (227) carry ADDR instead of the listening
                        address, as behind NAT.
  --passive-ports MIN-MAX  passive data connections use only ports MIN to MAX.
  --throttle BPS        data connections move at most BPS bytes per second (both
                        directions: RETR/LIST sends, STOR/APPE receives).
  --drop-after N        the data connection of a RETR is closed after N bytes have
                        been sent on it (REST offsets do not count); the control
                        connection then gets "426 ...". With --drop-count K only the
                        first K RETRs of this server are cut (default: all).
  --drop-upload-after N the same for STOR/APPE: the data connection of an upload is
                        closed once N bytes (or more, a read's worth) have arrived on it;
                        the client gets "426 ...". --drop-count K counts these cuts too.
  --extra-user NAME:PASS:ROOT
                        one more login (repeatable), with its own root folder: several
                        devices at one address and port.
  --max-cons N          at most N connections at once (more get "421 Too many
                        connections" and are closed), as small devices do.
  --command-log FILE    every command received is appended to FILE as
                        "TIME SESSION CMD LINE" and every reply as
                        "TIME SESSION REPLY LINE" (TIME = UTC ISO 8601 with ms,
                        SESSION = client ADDR:PORT, PASS shown as "PASS ****").
  --peer-log FILE       one line per connection accepted is appended to FILE:
                        "control PEER-IP" for each control connection and "data PEER-IP"
                        for each passive data connection (also those then refused with
                        425 because PEER-IP is not the control connection's): shows
                        where connections come from, e.g. a proxy's outgoing address.

The password is read from the environment variable FTPSYNC_LAB_PASS so it never
appears in the process table.
"""

import argparse
import datetime
import logging
import os
import sys
import threading
import time

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler, PassiveDTP, ThrottledDTPHandler
from pyftpdlib.servers import FTPServer


class CommandLog:
    """Appends one line per command and reply; flushed at once so tests can read it."""

    def __init__(self, path):
        self._file = open(path, "a", encoding="utf-8", errors="backslashreplace")
        self._lock = threading.Lock()

    def write(self, session, kind, text):
        now = datetime.datetime.now(datetime.timezone.utc)
        stamp = now.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (now.microsecond // 1000)
        text = text.replace("\r", "\\r").replace("\n", "\\n")
        with self._lock:
            self._file.write("%s %s %s %s\n" % (stamp, session, kind, text))
            self._file.flush()


class PeerLog:
    """Appends "KIND PEER-IP" per accepted connection; flushed at once so tests can read it."""

    def __init__(self, path):
        self._file = open(path, "a", encoding="utf-8")
        self._lock = threading.Lock()

    def write(self, kind, ip):
        with self._lock:
            self._file.write("%s %s\n" % (kind, ip))
            self._file.flush()


def make_passive_dtp(peer_log):
    """The passive data acceptor, logging the peer of each data connection it accepts."""

    class LabPassiveDTP(PassiveDTP):
        def handle_accepted(self, sock, addr):
            peer_log.write("data", addr[0])
            return super().handle_accepted(sock, addr)

    return LabPassiveDTP


def mask(line):
    """Hides the argument of PASS."""
    if line[:4].upper() == "PASS":
        return "PASS ****"
    return line


def make_dtp_handler(throttle, drop_after, drop_count, drop_upload_after=None):
    """Data connection handler with bandwidth limit and cut-off, or None if neither is asked."""
    if not throttle and drop_after is None and drop_upload_after is None:
        return None  # pyftpdlib's own handler, which uses sendfile(2)
    state = {"dropped": 0}

    class LabDTPHandler(ThrottledDTPHandler):
        read_limit = throttle
        write_limit = throttle

        def _cut_now(self):
            if drop_after is None or self.cmd != "RETR":
                return False
            return drop_count is None or state["dropped"] < drop_count

        def send(self, data):
            if self._cut_now():
                room = drop_after - self.tot_bytes_sent
                if room <= 0:
                    self._drop()
                    return 0
                data = data[:room]
            sent = super().send(data)
            if self._cut_now() and self.tot_bytes_sent >= drop_after:
                self._drop()
            return sent

        def handle_read(self):
            cut = drop_upload_after is not None and self.cmd in ("STOR", "APPE")
            if cut and (drop_count is None or state["dropped"] < drop_count):
                if self.tot_bytes_received >= drop_upload_after:
                    self._drop()
                    return
            super().handle_read()

        # pyftpdlib's IOLoop calls handle_read_event, an alias bound to the base class's method.
        handle_read_event = handle_read

        def _drop(self):
            if self._closed:
                return
            state["dropped"] += 1
            self._resp = (
                "426 Data connection cut after %d bytes (test fault)." % self.tot_bytes_sent,
                logging.info,
            )
            self.close()

    return LabDTPHandler


def main():
    ap = argparse.ArgumentParser(description="pyftpdlib test server for ftpsync")
    ap.add_argument("--root", required=True)
    ap.add_argument("--addr", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--user", required=True, help="login name, or 'anonymous'")
    ap.add_argument("--no-epsv-mlsd", action="store_true")
    ap.add_argument("--masquerade")
    ap.add_argument("--no-eprt", action="store_true")
    ap.add_argument("--latency", type=float, default=0)
    ap.add_argument("--throttle", type=int, default=0)
    ap.add_argument("--drop-after", type=int)
    ap.add_argument("--drop-count", type=int)
    ap.add_argument("--drop-upload-after", type=int)
    ap.add_argument("--command-log")
    ap.add_argument("--peer-log", help="append 'control IP' / 'data IP' per accepted connection")
    ap.add_argument("--passive-ports", help="MIN-MAX: passive data ports only from this range")
    ap.add_argument("--extra-user", action="append", default=[])
    ap.add_argument("--max-cons", type=int, default=256)
    ap.add_argument(
        "--raw-names", action="store_true",
        help="serve file names as their raw bytes (surrogateescape) instead of '?' for non-UTF-8 bytes",
    )
    ap.add_argument(
        "--ignore-rest", action="store_true",
        help="answer REST with 350 but send every RETR from byte 0 (a device that cannot restart)",
    )
    ap.add_argument("--tls-cert", help="explicit FTPS (AUTH TLS) required, with this PEM certificate")
    ap.add_argument("--tls-key", help="the certificate's private key (PEM)")
    a = ap.parse_args()

    logging.basicConfig(
        stream=sys.stderr,
        level=logging.INFO,
        format="[%(asctime)s] %(levelname)s %(message)s",
    )

    authorizer = DummyAuthorizer()
    perm = "elradfmwMT"  # read, list, write, rename, delete, mkdir, chmod, MFMT
    if a.user in ("anonymous", "ftp"):
        authorizer.add_anonymous(a.root, perm=perm)
    else:
        authorizer.add_user(a.user, os.environ.get("FTPSYNC_LAB_PASS", ""), a.root, perm=perm)
    for extra in a.extra_user:
        name, password, root = extra.split(":", 2)
        os.makedirs(root, exist_ok=True)
        authorizer.add_user(name, password, root, perm=perm)

    removed = {"EPSV", "MLSD", "MLST"} if a.no_epsv_mlsd else set()
    if a.no_eprt:
        removed.add("EPRT")
    command_log = CommandLog(a.command_log) if a.command_log else None
    peer_log = PeerLog(a.peer_log) if a.peer_log else None

    base = FTPHandler
    if a.tls_cert:
        from pyftpdlib.handlers import TLS_FTPHandler  # needs pyOpenSSL (python3-openssl)

        base = TLS_FTPHandler

    class LabHandler(base):
        proto_cmds = {k: v for k, v in base.proto_cmds.items() if k not in removed}

        def _session(self):
            return "%s:%s" % (self.remote_ip, self.remote_port)

        def on_connect(self):
            if peer_log:
                peer_log.write("control", self.remote_ip)
            return super().on_connect()

        def pre_process_command(self, line, cmd, arg):
            if command_log:
                command_log.write(self._session(), "CMD", mask(line))
            return super().pre_process_command(line, cmd, arg)

        if a.ignore_rest:

            def ftp_REST(self, line):
                self.respond("350 Restarting at position %s." % line)

        def respond(self, resp, logfun=logging.debug):
            if a.latency:
                time.sleep(a.latency / 1000.0)
            if command_log:
                command_log.write(self._session(), "REPLY", resp)
            return super().respond(resp, logfun)

    LabHandler.authorizer = authorizer
    if a.raw_names:
        # listings and commands carry the names' bytes unchanged (legacy encodings: GBK, latin1)
        LabHandler.unicode_errors = "surrogateescape"
    # FTPSYNC_LAB_BANNER: another greeting (a device after a firmware update, for identity tests)
    LabHandler.banner = os.environ.get("FTPSYNC_LAB_BANNER") or "ftpsync test server (pyftpdlib) ready"
    dtp_handler = make_dtp_handler(a.throttle, a.drop_after, a.drop_count, a.drop_upload_after)
    if dtp_handler is not None:
        LabHandler.dtp_handler = dtp_handler
    if peer_log:
        LabHandler.passive_dtp = make_passive_dtp(peer_log)
    if a.masquerade:
        LabHandler.masquerade_address = a.masquerade
    if a.passive_ports:
        low, high = (int(part) for part in a.passive_ports.split("-"))
        LabHandler.passive_ports = list(range(low, high + 1))
    if a.tls_cert:
        LabHandler.certfile = a.tls_cert
        LabHandler.keyfile = a.tls_key
        LabHandler.tls_control_required = True
        LabHandler.tls_data_required = True

    server = FTPServer((a.addr, a.port), LabHandler)
    # pyftpdlib counts its listening socket among the connections: one more.
    server.max_cons = a.max_cons + 1
    server.max_cons_per_ip = 0
    logging.info(
        "serving %s on %s:%d user=%s removed=%s masquerade=%s throttle=%s drop_after=%s",
        a.root, a.addr, a.port, a.user, sorted(removed), a.masquerade, a.throttle, a.drop_after,
    )
    server.serve_forever(handle_exit=True)


if __name__ == "__main__":
    sys.exit(main())
