#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""A scripted FTP server for ftpsync's listing tests (loopback only): LIST, and MLSD when asked.

Usage: listing-ftp.py SPEC.json ADDR
Prints the port on stdout once listening, then serves until killed; every command is logged on
stderr as "CMD VERB ARG". SPEC holds:
  folders   {"/path": ["LIST line", ...]}: \\xNN in a line stands for one raw byte
  files     {"/path": size}: SIZE answers the size, RETR sends that many bytes (byte k is k % 251)
  mlsd      {"/path": ["MLSD line", ...]}: offers MLSD (FEAT "MLST type*;size*;modify*;")
            listing those folders (a folder not there: 550)
  sizes     {"/path": "reply"}: SIZE of that path answers the reply line as it is ("213 5 junk")
  features  FEAT lines, e.g. ["SIZE"] (default none)
  data      "ok" (default); "refuse-list": LIST and MLSD answer "425 Can't open data connection"
            (RETR works); "refuse-once": the server's first LIST or MLSD does; "closed": EPSV
            and PASV name a port where nothing listens
  stat      "indent" (" line", default), "prefix" ("213-line") or "none" (STAT answers 502)
  list_a    how LIST takes a leading "-a" option: "option" (default: dropped, the folder is
            listed), "path" (taken as part of the path: "LIST -a" lists a folder named "-a"),
            "empty" (an empty listing) or "refuse" (501)
  rate      bytes per second a RETR sends at (default: as fast as it can)
  noop      how a NOOP that comes during a RETR is answered (it is read while the data moves):
            "refuse" ("500 NOOP not allowed during a transfer", before the 226) or "misorder"
            (a "226 Transfer complete" in its place, before the transfer's own 226) or "abort"
            (the transfer is cut: "426 Transfer aborted", then "200 OK")
"""

import json
import re
import select
import socket
import sys
import threading
import time

from hostile.base import send_features, send_passive

SPEC = {}
REFUSED = []


def raw(line):
    return re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]), line.encode("utf-8"))


def content(size, offset):
    base = bytes(range(251))
    start = offset % 251
    out = bytearray()
    left = size - offset
    while left > 0:
        chunk = (base[start:] + base * 64)[: min(left, 1 << 16)]
        out += chunk
        left -= len(chunk)
        start = (start + len(chunk)) % 251
        if len(out) >= 1 << 20:
            yield bytes(out)
            out = bytearray()
    if out:
        yield bytes(out)


def closed_port(addr):
    probe = socket.socket()
    probe.bind((addr, 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


LOG_LOCK = threading.Lock()


class Session(threading.Thread):
    def __init__(self, conn):
        super().__init__(daemon=True)
        self.conn, self.listener, self.rest = conn, None, 0

    def send(self, data):
        self.conn.sendall((data.encode("utf-8") if isinstance(data, str) else data) + b"\r\n")

    def run(self):
        try:
            self.send("220 listing test server")
            reader = self.reader = self.conn.makefile("rb")
            while True:
                line = reader.readline()
                if not line:
                    return
                text = line.rstrip(b"\r\n").decode("utf-8", "surrogateescape")
                verb, _, arg = text.partition(" ")
                with LOG_LOCK:  # whole lines: sessions are threads, print() calls could interleave
                    sys.stderr.write("CMD %s %s\n" % (verb.upper(), arg))
                    sys.stderr.flush()
                if not self.command(verb.upper(), arg):
                    return
        except OSError:
            pass
        finally:
            self.conn.close()

    def passive(self):
        addr = self.conn.getsockname()[0]
        if SPEC.get("data") == "closed":
            return closed_port(addr)
        self.listener = socket.socket()
        self.listener.bind((addr, 0))
        self.listener.listen(1)
        return self.listener.getsockname()[1]

    def transfer(self, chunks):
        if self.listener is None:
            self.send("425 Use PASV first")
            return
        listener, self.listener = self.listener, None
        listener.settimeout(10)
        data, _ = listener.accept()
        listener.close()
        self.send("150 Opening data connection")
        rate = SPEC.get("rate")
        for chunk in chunks:
            for start in range(0, len(chunk), 16384):
                data.sendall(chunk[start : start + 16384])
                if rate:
                    time.sleep(16384 / rate)
                if self.answer_noops():
                    data.close()
                    self.send("426 Transfer aborted")
                    self.send("200 OK")
                    return
        data.close()
        self.send("226 Transfer complete")

    def answer_noops(self):
        """Answers the commands that came during a transfer as SPEC's noop says; True: abort it."""
        mode = SPEC.get("noop")
        while mode and select.select([self.conn], [], [], 0)[0]:
            line = self.reader.readline().rstrip(b"\r\n").decode("utf-8", "surrogateescape")
            with LOG_LOCK:
                sys.stderr.write("CMD %s \n" % line.upper())
                sys.stderr.flush()
            if mode == "abort":
                return True
            self.send("500 NOOP not allowed during a transfer" if mode == "refuse" else "226 Transfer complete")
        return False

    def folder(self, arg):
        path = "/" + arg.strip().strip("/")
        return SPEC.get("folders", {}).get(path)

    def command(self, verb, arg):
        files = SPEC.get("files", {})
        if verb == "USER":
            self.send("331 Password please")
        elif verb == "PASS":
            self.send("230 Logged in")
        elif verb == "FEAT":
            mlst = ["MLST type*;size*;modify*;"] if "mlsd" in SPEC else []
            send_features(self.send, SPEC.get("features", []) + mlst)
        elif verb in ("TYPE", "NOOP", "OPTS"):
            self.send("200 OK")
        elif verb == "SYST":
            self.send("215 UNIX Type: L8")
        elif verb == "PWD":
            self.send('257 "/" is the current folder')
        elif verb in ("EPSV", "PASV"):
            send_passive(self.send, verb, self.conn, self.passive())
        elif verb == "LIST" and re.match(r"-a( |$)", arg) and SPEC.get("list_a", "option") != "option":
            mode = SPEC["list_a"]
            if mode == "refuse":
                self.send("501 Bad option")
            elif mode == "empty":
                self.transfer([b""])
            else:
                self.send("550 No such folder") if self.folder(arg) is None else self.transfer([b""])
        elif verb in ("LIST", "MLSD") and (verb == "LIST" or "mlsd" in SPEC):
            if verb == "LIST" and re.match(r"-a( |$)", arg):
                arg = arg[2:].strip()
            lines = self.folder(arg) if verb == "LIST" else SPEC["mlsd"].get("/" + arg.strip().strip("/"))
            refuse = SPEC.get("data") == "refuse-list" or (SPEC.get("data") == "refuse-once" and not REFUSED)
            if refuse:
                REFUSED.append(verb)
                if self.listener:
                    self.listener.close()
                    self.listener = None
                self.send("425 Can't open data connection")
            elif lines is None:
                self.send("550 No such folder")
            else:
                self.transfer([b"".join(raw(line) + b"\r\n" for line in lines)])
        elif verb == "STAT" and SPEC.get("stat", "indent") != "none" and arg:
            lines = self.folder(arg)
            if lines is None:
                self.send("550 No such folder")
                return True
            prefix = b"213-" if SPEC.get("stat") == "prefix" else b" "
            self.send("213-Status of %s:" % arg)
            self.conn.sendall(b"".join(prefix + raw(line) + b"\r\n" for line in lines))
            self.send("213 End of status")
        elif verb == "SIZE" and "SIZE" in SPEC.get("features", []) and arg in SPEC.get("sizes", {}):
            self.send(SPEC["sizes"][arg])
        elif verb == "SIZE" and "SIZE" in SPEC.get("features", []) and arg in files:
            self.send("213 %d" % files[arg])
        elif verb == "REST":
            self.rest = int(arg or "0")
            self.send("350 Restarting at %d" % self.rest)
        elif verb == "RETR" and arg in files:
            offset, self.rest = self.rest, 0
            self.transfer(content(files[arg], offset))
        elif verb in ("SIZE", "RETR", "MDTM"):
            self.send("550 No such file")
        elif verb == "QUIT":
            self.send("221 Bye")
            return False
        else:
            self.send("502 Not implemented")
        return True


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as spec:
        SPEC.update(json.load(spec))
    addr = sys.argv[2]
    if not addr.startswith("127."):
        sys.exit("loopback addresses only")
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((addr, 0))
    server.listen(16)
    print(server.getsockname()[1], flush=True)
    while True:
        conn, _ = server.accept()
        Session(conn).start()


if __name__ == "__main__":
    main()
