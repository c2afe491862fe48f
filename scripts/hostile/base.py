# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""hostile-ftp.py's shared part: the files of its modes, TLS, listing lines and the base
session (see the modes in hostile-ftp.py)."""

import calendar
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

GOOD = {"good.txt": b"good content\n", "sub/good2.txt": b"second good file\n"}
THREE = {"a.txt": b"first\n", "b.txt": b"second\n", "c.txt": b"third\n"}
BAD_ROOT = ["../escape.txt", "a/../../b", "/etc/x", "nul\0name.txt", "cr\rname.txt", "lf\nname.txt"]
STAMP = "20240501102000"


LONG = "x" * 296 + ".txt"
HUGE = 18446744073709551615
ESC_NAMES = {"esc\x1b[31mred.txt": b"red\n", "csi\x9b2Jname.txt": b"csi\n", "bad\udcffbyte.txt": b"ff\n",
             "plain.txt": b"plain\n", "fail\x1b[K.txt": b"never\n"}
MANY = {"f%03d.txt" % k: b"file %d\n" % k for k in range(320)}  # tls-one-ticket
LEARNED = {"password": None}  # echo-pass: the last password any session sent
_LOG_LOCK = threading.Lock()


def log_line(text):
    """Writes one line of the command log on stderr whole: sessions run in threads, and two
    print() calls at once could interleave (a test counting RNTOs then missed one)."""
    with _LOG_LOCK:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
TLS = {}  # tls-*: "control" and "data" server contexts


def send_features(send, features):
    """The FEAT reply (RFC 2389) listing `features`."""
    send("211-Features:")
    for feature in features:
        send(" " + feature)
    send("211 End")


def send_passive(send, verb, conn, port):
    """The reply to EPSV (229) or PASV (227) naming `port` on the control connection's address."""
    if verb == "EPSV":
        send("229 Entering Extended Passive Mode (|||%d|)" % port)
    else:
        host = conn.getsockname()[0].replace(".", ",")
        send("227 Entering Passive Mode (%s,%d,%d)" % (host, port >> 8, port & 255))


def make_tls_contexts(mode):
    folder = tempfile.mkdtemp(prefix="hostile-tls-")
    contexts = {}
    for role in ("control", "data"):
        key, cert = os.path.join(folder, role + ".key"), os.path.join(folder, role + ".pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj",
                        "/CN=hostile " + role, "-keyout", key, "-out", cert], check=True, capture_output=True)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        contexts[role] = (context, cert)
    if mode in ("tls-same-cert", "tls-one-ticket"):
        contexts["data"] = contexts["control"]
    if mode == "tls-one-ticket":
        contexts["control"][0].num_tickets = 1
    out = subprocess.run(["openssl", "x509", "-in", contexts["control"][1], "-noout", "-fingerprint", "-sha256"],
                         check=True, capture_output=True, text=True).stdout
    TLS["control"], TLS["data"] = contexts["control"][0], contexts["data"][0]
    return "sha256:" + out.strip().split("=", 1)[1]


def mlsd_lines(folder, mode=""):
    if mode in ("extra-reply", "extra-reply-all"):
        return [f"type=file;size={len(data)};modify={STAMP}; {name}" for name, data in THREE.items()]
    if mode == "huge":
        return [f"type=file;size=6;modify={STAMP}; small.txt"] + [
            f"type=file;size={HUGE};modify={STAMP}; huge{k}.bin" for k in (1, 2)]
    if mode == "echo-pass":
        return [f"type=file;size=13;modify={STAMP}; good.txt", f"type=file;size=4;modify={STAMP}; gone.txt"]
    if mode == "escapes":
        return [f"type=file;size={len(data)};modify={STAMP}; {name}" for name, data in ESC_NAMES.items()]
    if mode == "tls-one-ticket":
        return [f"type=file;size={len(data)};modify={STAMP}; {name}" for name, data in MANY.items()]
    if mode.startswith("tls-"):
        return [f"type=file;size={len(data)};modify={STAMP}; {name}" for name, data in GOOD.items() if "/" not in name]
    if mode == "longname":
        return [f"type=file;size=13;modify={STAMP}; good.txt", f"type=file;size=7;modify={STAMP}; {LONG}"]
    if mode.startswith("full"):
        if folder in ("", "/", "."):
            return [f"type=dir;modify={STAMP}; sub", f"type=file;size=13;modify={STAMP}; good.txt"]
        return [f"type=file;size=17;modify={STAMP}; good2.txt"]
    if folder in ("", "/", "."):
        lines = [f"type=cdir;modify={STAMP}; .", f"type=pdir;modify={STAMP}; ..",
                 f"type=dir;modify={STAMP}; sub", f"type=file;size=13;modify={STAMP}; good.txt"]
        lines += [f"type=file;size=7;modify={STAMP}; {name}" for name in BAD_ROOT]
        lines += [f"type=dir;modify={STAMP}; ..", f"type=dir;modify={STAMP}; ."]
    else:
        lines = [f"type=file;size=17;modify={STAMP}; good2.txt",
                 f"type=file;size=7;modify={STAMP}; ../../escape2.txt"]
    return lines


def list_lines(folder):
    def row(kind, size, name):
        return f"{kind}rw-r--r--    1 ftp      ftp      {size:8d} May 01 10:20 {name}"
    if folder in ("", "/", "."):
        lines = [row("d", 4096, "."), row("d", 4096, ".."), row("d", 4096, "sub"), row("-", 13, "good.txt")]
        lines += [row("-", 7, name) for name in BAD_ROOT]
    else:
        lines = [row("-", 17, "good2.txt"), row("-", 7, "../../escape2.txt")]
    return lines


# How many Session connections are open now (the full* modes refuse beyond their limit).
OPEN_SESSIONS = {"lock": threading.Lock(), "count": 0}


class Session(threading.Thread):
    def __init__(self, conn, mode):
        super().__init__(daemon=True)
        self.conn, self.mode = conn, mode
        self.data_listener = None
        self.rest = 0
        self.extra_sent = False
        self.user = ""
        self.protected = False
        self.resumed13 = 0  # tls-one-ticket: TLS 1.3 data connections resumed on this session

    def send(self, text):
        self.conn.sendall(text.encode("utf-8", "surrogateescape") + b"\r\n")

    def run(self):
        with OPEN_SESSIONS["lock"]:
            self.others = OPEN_SESSIONS["count"]
            OPEN_SESSIONS["count"] += 1
        try:
            self.serve()
        except OSError:
            pass
        finally:
            with OPEN_SESSIONS["lock"]:
                OPEN_SESSIONS["count"] -= 1
            self.conn.close()

    def refuses(self, stage):
        """Whether this connection is over the server's limit (the full* modes) at `stage`."""
        if stage == "CONNECT" and (self.mode == "full" or (self.mode == "full-after-one" and self.others)):
            return True
        return stage == "PASS" and self.mode == "full-login-after-one" and self.others > 0

    def serve(self):
        mode = self.mode
        if mode == "silent":
            while self.conn.recv(4096):
                pass
            return
        if mode == "garbage":
            self.conn.sendall(b"hello there\r\n")
            self.drain()
            return
        if mode == "truncated":
            self.conn.sendall(b"22")
            return
        if mode == "longline":
            self.conn.sendall(b"220 " + b"x" * 200_000)
            self.drain()
            return
        if self.refuses("CONNECT"):
            log_line("CMD CONNECT refused")
            self.send("421 Too many connections (2) from this IP")
            return
        self.send(self.banner())
        self.reader = self.conn.makefile("rb")
        while True:
            raw = self.reader.readline()
            if not raw:
                return
            line = raw.rstrip(b"\r\n").decode("utf-8", "surrogateescape")
            verb, _, arg = line.partition(" ")
            verb = verb.upper()
            if mode == "sequence":
                self.send("226 Transfer complete" if verb == "USER" else "200 whatever")
                continue
            if not self.command(verb, arg):
                return

    def banner(self):
        if self.mode == "echo-pass" and LEARNED["password"] is not None:
            return "220 hostile test server, last password " + LEARNED["password"]
        if self.mode == "escapes":
            return "220 \x1b]0;owned\x07\x1b[2J\x1b[31mhostile\x9b0m test server"
        return "220 hostile test server"

    def final_text(self):
        if self.mode == "echo-pass":
            return "226 Sent to the holder of " + str(LEARNED["password"])
        if self.mode == "escapes":
            return "226 \x1b[1mTransfer complete\x9b0m"
        return "226 Transfer complete"

    def drain(self):
        self.conn.settimeout(30)
        try:
            while self.conn.recv(4096):
                pass
        except OSError:
            pass

    def open_listener(self):
        listener = socket.socket()
        listener.bind((self.conn.getsockname()[0], 0))
        listener.listen(1)
        self.data_listener = listener
        return listener.getsockname()[1]

    def data_connection(self):
        """The data connection the client opens to the listener of its EPSV/PASV, or None
        after a 425 when there is none."""
        if self.data_listener is None:
            self.send("425 Use EPSV first")
            return None
        listener, self.data_listener = self.data_listener, None
        listener.settimeout(10)
        conn, _ = listener.accept()
        listener.close()
        return conn

    def transfer(self, payload, retrieving=False):
        if self.data_listener is None:
            self.send("425 Use EPSV first")
            return
        listener, self.data_listener = self.data_listener, None
        if self.mode == "no-data":
            self.send("150 Here it comes")  # and nothing ever does
            listener.settimeout(120)
            try:
                conn, _ = listener.accept()
                conn.recv(1)
            except OSError:
                pass
            return
        listener.settimeout(10)
        conn, _ = listener.accept()
        listener.close()
        self.send("150 Opening data connection")
        if self.mode.startswith("tls-") and self.protected:
            try:
                conn = TLS["data" if retrieving else "control"].wrap_socket(conn, server_side=True)
                if self.mode == "tls-one-ticket":
                    exhausted = conn.version() == "TLSv1.3" and self.resumed13 >= 1
                    if not conn.session_reused or exhausted:
                        conn.close()
                        self.send("522 SSL connection failed: session reuse required")
                        return
                    self.resumed13 += conn.version() == "TLSv1.3"
                conn.sendall(payload)
                conn.unwrap()
            except (OSError, ValueError):
                conn.close()
                self.send("426 Data connection failed")
                return
            conn.close()
            self.send("226 Transfer complete")
            return
        conn.sendall(payload)
        conn.close()
        self.send(self.final_text())
        if self.mode == "extra-reply-all" and retrieving:
            self.send("226 Transfer complete")
        if self.mode == "extra-reply" and retrieving and not self.extra_sent:
            self.extra_sent = True
            self.send("226 Transfer complete")

    def command(self, verb, arg):
        list_only = self.mode == "names-list"
        if verb == "USER":
            self.user = arg
            self.send("331 Password please")
        elif verb == "PASS" and self.refuses("PASS"):
            log_line("CMD PASS refused")
            self.send("530 Sorry, too many users (1) are connected")
        elif verb == "PASS" and self.mode == "too-many":
            self.send("530 Too many connections (8) from this IP")
        elif verb == "PASS" and self.mode == "echo-pass":
            LEARNED["password"] = arg
            self.send(f"530 'PASS {arg}' refused" if self.user == "refused" else f"230 Welcome, {arg}")
        elif verb == "PASS":
            self.send("230 \x1b[31mLogged in\x1b[0m" if self.mode == "escapes" else "230 Logged in")
        elif verb == "AUTH" and self.mode.startswith("tls-"):
            self.send("234 Proceed with TLS")
            self.conn = TLS["control"].wrap_socket(self.conn, server_side=True)
            self.reader = self.conn.makefile("rb")
        elif verb == "PBSZ" and self.mode.startswith("tls-"):
            self.send("200 PBSZ=0")
        elif verb == "PROT" and self.mode.startswith("tls-"):
            self.protected = arg.strip().upper() == "P"
            self.send("200 Protection set")
        elif verb == "FEAT" and self.mode == "feat-endless":
            self.send("211-Features:")
            for n in range(10_000_000):
                self.send(" X-FEATURE-%d" % n)
        elif verb == "FEAT" and self.mode == "feat-hang":
            self.send("211-Features:")
            self.send(" SIZE")
            self.drain()
            return False
        elif verb == "FEAT":
            tls = ["AUTH TLS", "PBSZ", "PROT"] if self.mode.startswith("tls-") else []
            send_features(self.send, ([] if list_only else ["MLST type*;size*;modify*;"]) + ["SIZE", "MDTM", "REST STREAM"] + tls)
        elif verb in ("TYPE", "OPTS", "NOOP"):
            self.send("200 OK")
        elif verb == "SYST" and self.mode == "echo-pass":
            self.send("215 UNIX Type: L8 for " + str(LEARNED["password"]))
        elif verb == "SYST" and self.mode == "escapes":
            self.send("215 UNIX \x1b[5mType\x9b0m: L8")
        elif verb == "SYST":
            self.send("215 UNIX Type: L8")
        elif verb == "PWD":
            self.send('257 "/" is the current folder')
        elif verb in ("EPSV", "PASV"):
            send_passive(self.send, verb, self.conn, self.open_listener())
        elif verb == "REST":
            self.rest = int(arg or "0")
            self.send("350 Restarting at %d" % self.rest)
        elif verb in ("MLSD", "LIST"):
            if self.mode == "mid-close":
                return False
            if verb == "MLSD" and list_only:
                self.send("500 Unknown command")
                return True
            if verb == "LIST" and (arg == "-a" or arg.startswith("-a ")):  # dot files too, as vsftpd's -a
                arg = arg[2:]
            folder = arg.strip().strip("/")
            lines = mlsd_lines(folder, self.mode) if verb == "MLSD" else list_lines(folder)
            if self.mode.startswith("feat-"):  # only the good files
                lines = [l for l in list_lines(folder) if l.endswith((" sub", " good.txt", " good2.txt"))]
            self.transfer("".join(l + "\r\n" for l in lines).encode("utf-8", "surrogateescape"))
        elif verb == "RETR" and self.mode == "huge":
            name = arg.lstrip("/")
            payload = b"small\n" if name == "small.txt" else b"xxxxx"
            self.transfer(payload[self.rest:], retrieving=True)
            self.rest = 0
        elif verb == "RETR" and self.mode == "echo-pass" and arg.lstrip("/") == "gone.txt":
            self.send(f"550 gone.txt: not for PASS {LEARNED['password']}")
        elif verb == "RETR" and self.mode == "escapes":
            name = arg.lstrip("/")
            if name.startswith("fail"):
                self.send("550 \x1b[2J\x1b[Hrefused\x9b31m here")
            else:
                self.transfer(ESC_NAMES.get(name, b"ESCAPED")[self.rest:], retrieving=True)
            self.rest = 0
        elif verb == "RETR" and self.mode == "tls-one-ticket":
            self.transfer(MANY.get(arg.lstrip("/"), b"ESCAPED")[self.rest:], retrieving=True)
            self.rest = 0
        elif verb == "RETR":
            name = arg.lstrip("/")
            files = THREE if self.mode in ("extra-reply", "extra-reply-all") else GOOD
            payload = files.get(name, b"ESCAPED")[self.rest:]
            self.rest = 0
            self.transfer(payload, retrieving=True)
        elif verb == "SIZE" and self.mode == "huge":
            self.send("213 %d" % (6 if arg.lstrip("/") == "small.txt" else HUGE))
        elif verb == "SIZE":
            name = arg.lstrip("/")
            self.send("213 %d" % len(GOOD.get(name, b"ESCAPED")))
        elif verb == "MDTM":
            self.send("213 " + STAMP)
        elif verb == "QUIT":
            self.send("221 Bye")
            return False
        else:
            self.send("502 Not implemented")
        return True
