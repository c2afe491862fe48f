#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""A pyftpdlib server on loopback for the FTPClient tests.

Prints "READY <port>" on stdout once it listens, then serves until killed.
Modes:
  --no-epsv-mlsd      remove EPSV, MLSD and MLST (an old server: PASV + LIST only)
  --refuse-mlsd       announce MLST in FEAT but answer MLSD with 500
  --masquerade ADDR   the 227 reply names ADDR instead of the server's address
  --throttle BPS      data connections send at most BPS bytes per second
  --drop-after N      data connections that send files close after N bytes
  --silent            accept connections and never send a byte
"""
import argparse
import signal
import socket
import sys
import time

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import DTPHandler, FTPHandler, ThrottledDTPHandler
from pyftpdlib.servers import FTPServer


def main():
    # The test runner may start us with signals blocked; SIGTERM must stop the server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--root", required=False, default=".")
    parser.add_argument("--user", default="tester")
    parser.add_argument("--password", default="secret")
    parser.add_argument("--no-epsv-mlsd", action="store_true")
    parser.add_argument("--refuse-mlsd", action="store_true")
    parser.add_argument("--masquerade")
    parser.add_argument("--throttle", type=int)
    parser.add_argument("--drop-after", type=int)
    parser.add_argument("--silent", action="store_true")
    args = parser.parse_args()

    if args.silent:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.bind((args.host, 0))
        listener.listen(16)
        print("READY %d" % listener.getsockname()[1], flush=True)
        held = []
        while True:
            conn, _ = listener.accept()
            held.append(conn)  # keep it open, say nothing

    authorizer = DummyAuthorizer()
    authorizer.add_user(args.user, args.password, args.root, perm="elradfmwMT")
    authorizer.add_anonymous(args.root)

    class Handler(FTPHandler):
        pass

    Handler.authorizer = authorizer
    Handler.banner = "pyftpdlib test server ready."
    Handler.use_sendfile = False
    Handler.unicode_errors = "surrogateescape"  # names are bytes: legacy encodings pass through
    if args.no_epsv_mlsd:
        Handler.proto_cmds = {
            k: v for k, v in FTPHandler.proto_cmds.items() if k not in ("EPSV", "MLSD", "MLST")
        }
    if args.refuse_mlsd:
        def refuse(self, line):
            self.respond("500 Command \"MLSD\" not understood.")
        Handler.ftp_MLSD = refuse
    if args.masquerade:
        Handler.masquerade_address = args.masquerade
    if args.throttle:
        class Throttled(ThrottledDTPHandler):
            read_limit = args.throttle
            write_limit = args.throttle
        Handler.dtp_handler = Throttled
    if args.drop_after is not None:
        limit = args.drop_after

        class Dropping(DTPHandler):
            def use_sendfile(self):
                return False

            def send(self, data):
                room = limit - self.tot_bytes_sent
                if room <= 0:
                    self.handle_close()  # closes the data connection, replies 426
                    return 0
                return super().send(data[:room])

        Handler.dtp_handler = Dropping

    server = FTPServer((args.host, 0), Handler)
    print("READY %d" % server.address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
