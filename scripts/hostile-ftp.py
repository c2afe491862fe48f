#!/usr/bin/python3
"""A deliberately misbehaving FTP server for ftpsync's fault tests (loopback only).

Usage: hostile-ftp.py MODE ADDR [PORT]
Prints "PORT" on stdout once listening (PORT 0 = pick a free one), then serves until killed.
Every connection is handled on its own thread. MODE:

  names      a working server whose root listing holds hostile names: ../escape.txt,
             a/../../b, /etc/x, names with NUL, CR and LF, "." and "..", and a folder "sub"
             whose listing holds ../../escape2.txt. Good files: good.txt, sub/good2.txt.
             RETR of any name answers with that name's content (a bad name gets "ESCAPED").
  names-list the same with LIST only (no MLSD in FEAT, MLSD answers 500).
  silent     accepts connections and never sends a byte.
  garbage    greets with a line that is no reply ("hello there").
  truncated  sends "22" and closes the connection.
  longline   greets with a 200 KB line without an end.
  sequence   answers USER with "226 Transfer complete" (a code out of sequence) and then
             everything with 200.
  no-data    logs in and lists like "names", but for MLSD/LIST/RETR opens no data
             connection: EPSV names a port that is listening and never sends, 150 follows.
  mid-close  logs in, then closes the control connection when MLSD or LIST arrives.
  longname   a working server listing good.txt and a file whose name is 300 bytes long
             (more than a local file system holds).
  extra-reply a working server of three files (a.txt, b.txt, c.txt) that answers the first
             RETR of each session with one final reply too many ("226" twice): every later
             reply of that session is one off unless the client notices.
  huge       a working server listing small.txt and two files of size 18446744073709551615
             (2^64 - 1): any sum of sizes overflows. RETR of a huge file sends 5 bytes.
  echo-pass  echoes the PASS argument: user "refused" gets `530 'PASS <arg>' refused`; any other
             user is logged in ("230 Welcome, <arg>") and then sees the password again in the
             banner of later connections, SYST, the 226 after a listing, and the 550 refusing
             RETR of gone.txt (listed beside good.txt).
  escapes    terminal escape sequences (ESC, BEL, C1 CSI U+009B) in the banner, the 230, SYST and
             226 replies and in listed names (plus a name with the raw byte 0xFF, and
             fail<ESC>[K.txt whose RETR is refused by a 550 holding ESC sequences).
  tls-data-cert  explicit FTPS (AUTH TLS) with a self-signed certificate on the control connection
             (and listings' data connections) and ANOTHER self-signed certificate on the data
             connection of every RETR; prints the control
             certificate's fingerprint (sha256:AB:...) as a second line on stdout. Files: GOOD.
  tls-same-cert  the same with the control's certificate on data connections too (the good case).
  extra-reply-all  like extra-reply, but EVERY RETR gets the second "226".
  feat-endless  a working server (the files of GOOD, LIST only) whose FEAT reply never ends:
             feature lines without end until the client hangs up.
  feat-hang  the same, but FEAT sends "211-Features:" and one line, then nothing.
  tls-one-ticket  explicit FTPS, one certificate, 320 small files f000.txt ... f319.txt; the
             server issues one TLS 1.3 ticket per handshake and accepts one resumed TLS 1.3
             data connection per control session: later ones (and any data connection that
             does not resume) get "522 SSL connection failed: session reuse required". TLS 1.2
             data connections that resume are always accepted.
  too-many   answers every PASS with "530 Too many connections (8) from this IP" (a full
             server that words its refusal as a failed login, like vsftpd and many NAS).
  full       greets every connection with "421 Too many connections (2) from this IP" and
             closes it; each refusal is logged on stderr as "CMD CONNECT refused".
  full-after-one  the files of GOOD (and nothing else) for one connection at a time: a connection made while
             another is open gets that 421 greeting (logged the same way).
  full-login-after-one  the same, but the extra connection is refused at PASS with
             "530 Sorry, too many users (1) are connected" (logged as "CMD PASS refused").

A working in-memory tree (read and write: STOR, APPE, DELE, MKD, RMD, RNFR/RNTO, SIZE, MDTM,
MFMT), that lists one folder badly; every command is logged on stderr as "CMD VERB ARG".
The tree: good.txt, keep/a.txt, and the folder "broken" holding b.txt and deep/c.txt:
  sub-550    MLSD/LIST of "broken" (and below) answer "550 Permission denied".
  sub-cut    MLSD/LIST of "broken" send half a listing, reset the data connection and
             answer "426 Connection closed; transfer aborted".
  sub-hang   MLSD/LIST of "broken" open the data connection, answer 150 and then send
             nothing (the client's timeout ends it).
  phantom    the folder "broken" does not exist for listing: MLSD/LIST of it (or any path
             below it) answer with the root's entries (which name "broken" again).
  endless    the root holds the folders e1 ... e6; the listing of each never ends (new
             file names until the client hangs up).

Folder modes serve the real folder named by $HOSTILE_ROOT (uploads land there; MLSD, SIZE,
MDTM, MFMT, STOR, APPE, REST, RNFR/RNTO, MKD, DELE, RMD work), each with one fault:

  folder     no fault.
  stall-after-rnto
             after the first RNTO this server carries out over an existing file, the next
             command of that session is never answered (the device lost right after the
             rename; the test kills the client meanwhile). Later sessions are served normally.
  stall-on-rnto
             the first RNTO over an existing file is neither carried out nor answered (a run
             killed between RNFR and RNTO: its temporary stays). Later ones work.
  short-store
             STOR and APPE store only the first half of what arrives (and answer 226), and
             SIZE is refused (502): only the listing shows that the temporary is short.
  wrong-size SIZE of an upload temporary (.NAME.ftpsync-part) answers 1000 bytes more than it
             holds; everything else is right.
  slow-old-store
             a threaded server whose first STOR outlives the client's patience: it stores
             64 KiB, stops reading for $HOSTILE_STALL seconds (default 3), then goes on storing
             whatever still arrives on that
             data connection, slowly (16 KiB per 80 ms), at its own offset, until the
             connection ends or breaks. A retry that appends meanwhile grows the file.
  zero-append
             the first STOR is cut after 64 KiB (426); every APPE stores zeros in place of
             the bytes it gets (the right size, the wrong content).
  refuse-overwrite-rnto
             RNTO onto an existing file answers "550 File exists" and renames nothing (IIS,
             some NAS); RNTO onto a free name works.
  lying-rnto RNTO onto an existing file answers "250 Renamed" and renames nothing; RNTO onto
             a free name works.
  rnto-fails-after-dele
             like refuse-overwrite-rnto, and the first RNTO after a DELE is refused too
             ("553 Permission denied"): the old file is gone, the upload waits as its
             temporary. Later RNTOs onto free names work.
  rest-keeps-tail, rest-zero-fill
             the first STOR of each file is cut after 64 KiB (426); APPE is refused (502); a
             STOR after REST N keeps only the bytes it gets (rest-keeps-tail: the file is the
             tail alone) or writes them at N over zeros (rest-zero-fill: the head is lost).
             STOR without REST works.
"""

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
TLS = {}  # tls-*: "control" and "data" server contexts


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
            print("CMD CONNECT refused", file=sys.stderr, flush=True)
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
            print("CMD PASS refused", file=sys.stderr, flush=True)
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
            self.send("211-Features:")
            tls = ["AUTH TLS", "PBSZ", "PROT"] if self.mode.startswith("tls-") else []
            for feature in ([] if list_only else ["MLST type*;size*;modify*;"]) + ["SIZE", "MDTM", "REST STREAM"] + tls:
                self.send(" " + feature)
            self.send("211 End")
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
        elif verb == "EPSV":
            self.send("229 Entering Extended Passive Mode (|||%d|)" % self.open_listener())
        elif verb == "PASV":
            port = self.open_listener()
            host = self.conn.getsockname()[0].replace(".", ",")
            self.send("227 Entering Passive Mode (%s,%d,%d)" % (host, port >> 8, port & 255))
        elif verb == "REST":
            self.rest = int(arg or "0")
            self.send("350 Restarting at %d" % self.rest)
        elif verb in ("MLSD", "LIST"):
            if self.mode == "mid-close":
                return False
            if verb == "MLSD" and list_only:
                self.send("500 Unknown command")
                return True
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


TREE_MODES = ("sub-550", "sub-cut", "sub-hang", "phantom", "endless")


class Tree:
    """The files and folders of the tree modes, shared by every connection."""

    def __init__(self, mode):
        self.lock = threading.Lock()
        self.dirs = {""}
        self.files = {}
        if mode == "endless":
            self.dirs |= {f"e{i}" for i in range(1, 7)}
        else:
            self.dirs |= {"keep", "broken", "broken/deep"}
            self.files = {"good.txt": b"good content\n", "keep/a.txt": b"kept file\n",
                          "broken/b.txt": b"user data b\n", "broken/deep/c.txt": b"user data c\n"}

    def children(self, folder):
        prefix = folder + "/" if folder else ""
        found = []
        for d in sorted(self.dirs):
            if d and d.startswith(prefix) and "/" not in d[len(prefix):]:
                found.append(("dir", d[len(prefix):], 0))
        for f in sorted(self.files):
            if f.startswith(prefix) and "/" not in f[len(prefix):]:
                found.append(("file", f[len(prefix):], len(self.files[f])))
        return found


class TreeSession(Session):
    """A session of the tree modes (see the module's doc)."""

    def __init__(self, conn, mode, tree):
        super().__init__(conn, mode)
        self.tree = tree
        self.rename_from = None
        self.cwd = ""

    def path(self, arg):
        arg = arg.strip()
        full = arg if arg.startswith("/") else (self.cwd + "/" + arg)
        return "/".join(p for p in full.split("/") if p and p != ".")

    def is_broken(self, path):
        return path == "broken" or path.startswith("broken/")

    def listing(self, verb, folder):
        def mlsd(kind, name, size):
            return f"type={kind};size={size};modify={STAMP}; {name}" if kind == "file" \
                else f"type=dir;modify={STAMP}; {name}"

        def unix(kind, name, size):
            return f"{'d' if kind == 'dir' else '-'}rw-r--r--    1 ftp      ftp      {size:8d} May 01 10:20 {name}"

        row = mlsd if verb == "MLSD" else unix
        with self.tree.lock:
            entries = self.tree.children(folder)
        return "".join(row(*e) + "\r\n" for e in entries).encode()

    def data_connection(self):
        if self.data_listener is None:
            self.send("425 Use EPSV first")
            return None
        listener, self.data_listener = self.data_listener, None
        listener.settimeout(10)
        conn, _ = listener.accept()
        listener.close()
        return conn

    def endless(self, verb):
        conn = self.data_connection()
        if conn is None:
            return
        self.send("150 Here it comes")
        number = 0
        try:
            while True:
                lines = []
                for _ in range(2000):
                    number += 1
                    name = "f%012d.txt" % number
                    lines.append(f"type=file;size=1;modify={STAMP}; {name}" if verb == "MLSD" else
                                 f"-rw-r--r--    1 ftp      ftp             1 May 01 10:20 {name}")
                conn.sendall(("\r\n".join(lines) + "\r\n").encode())
        except OSError:
            pass
        conn.close()
        self.send("426 Connection closed; transfer aborted")

    def command(self, verb, arg):
        print("CMD", verb, arg, file=sys.stderr, flush=True)
        if verb in ("MLSD", "LIST"):
            folder = self.path(arg)
            if self.mode == "endless" and folder:
                self.endless(verb)
                return True
            if self.is_broken(folder):
                if self.mode == "sub-550":
                    if self.data_listener is not None:
                        self.data_listener.close()
                        self.data_listener = None
                    self.send("550 Permission denied")
                    return True
                if self.mode == "phantom":
                    folder = ""
                if self.mode == "sub-hang":
                    conn = self.data_connection()
                    if conn is None:
                        return True
                    self.send("150 Here it comes")
                    conn.settimeout(60)
                    try:
                        conn.recv(1)
                    except OSError:
                        pass
                    conn.close()
                    self.send("426 Connection closed; transfer aborted")
                    return True
                if self.mode == "sub-cut":
                    conn = self.data_connection()
                    if conn is None:
                        return True
                    self.send("150 Here it comes")
                    payload = self.listing(verb, folder)
                    conn.sendall(payload[: len(payload) // 2])
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    conn.close()
                    self.send("426 Connection closed; transfer aborted")
                    return True
            self.transfer(self.listing(verb, folder))
            return True
        if verb == "FEAT":
            self.send("211-Features:")
            for feature in ["MLST type*;size*;modify*;", "SIZE", "MDTM", "MFMT", "REST STREAM", "UTF8"]:
                self.send(" " + feature)
            self.send("211 End")
            return True
        if verb == "CWD":
            target = self.path(arg)
            with self.tree.lock:
                known = target in self.tree.dirs
            if known:
                self.cwd = target
            self.send("250 OK" if known else "550 No such folder")
            return True
        if verb == "PWD":
            self.send('257 "/%s" is the current folder' % self.cwd)
            return True
        if verb in ("RETR", "SIZE", "MDTM", "STOR", "APPE", "DELE", "MKD", "RMD", "RNFR", "RNTO", "MFMT"):
            return self.file_command(verb, arg)
        return super().command(verb, arg)

    def file_command(self, verb, arg):
        tree = self.tree
        if verb == "MFMT":
            _, _, name = arg.partition(" ")
            self.send("213 Modify=%s; %s" % (STAMP, name))
            return True
        path = self.path(arg)
        if verb == "RETR":
            with tree.lock:
                data = tree.files.get(path)
            if data is None:
                self.send("550 No such file")
            else:
                payload, self.rest = data[self.rest:], 0
                self.transfer(payload)
        elif verb in ("SIZE", "MDTM"):
            with tree.lock:
                data = tree.files.get(path)
            if data is None:
                self.send("550 No such file")
            else:
                self.send("213 %s" % (len(data) if verb == "SIZE" else STAMP))
        elif verb == "APPE" and self.mode in REST_MODES:
            self.send("502 APPE not implemented")
        elif verb in ("STOR", "APPE"):
            conn = self.data_connection()
            if conn is None:
                return True
            self.send("150 Send it")
            chunks = []
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            conn.close()
            with tree.lock:
                old = tree.files.get(path, b"") if verb == "APPE" else tree.files.get(path, b"")[: self.rest]
                tree.files[path] = old + b"".join(chunks)
            self.rest = 0
            self.send("226 Stored")
        elif verb == "DELE":
            with tree.lock:
                found = tree.files.pop(path, None) is not None
            self.send("250 Deleted" if found else "550 No such file")
        elif verb == "MKD":
            with tree.lock:
                tree.dirs.add(path)
            self.send('257 "/%s" created' % path)
        elif verb == "RMD":
            with tree.lock:
                busy = any(k.startswith(path + "/") for k in list(tree.files) + list(tree.dirs))
                if not busy:
                    tree.dirs.discard(path)
            self.send("550 Not empty" if busy else "250 Removed")
        elif verb == "RNFR":
            self.rename_from = path
            self.send("350 Ready")
        elif verb == "RNTO":
            with tree.lock:
                data = tree.files.pop(self.rename_from, None) if self.rename_from else None
                if data is not None:
                    tree.files[path] = data
            self.send("250 Renamed" if data is not None else "550 No such file")
        return True


class FolderSession(Session):
    """A working server over the folder $HOSTILE_ROOT, with the fault of its mode."""

    stalled = False
    lock = threading.Lock()
    cut = set()  # rest-*: the files whose first STOR was cut
    deleted = 0  # rnto-fails-after-dele: 1 after the first DELE, 2 once an RNTO was refused

    def __init__(self, conn, mode, root):
        super().__init__(conn, mode)
        self.root = os.path.realpath(root)
        self.rename_from = None
        self.stall_next = False

    def local(self, arg):
        path = os.path.realpath(os.path.join(self.root, arg.lstrip("/")))
        if path != self.root and not path.startswith(self.root + os.sep):
            raise OSError("outside the root")
        return path

    def cut_store(self, conn, path):
        """Stores only the first 64 KiB that arrive at `path`, closes the data connection and
        answers 426: an upload cut by the network."""
        got = bytearray()
        while len(got) < 65536:
            chunk = conn.recv(65536 - len(got))
            if not chunk:
                break
            got += chunk
        conn.close()
        with open(path, "wb") as f:
            f.write(got)
        self.send("426 Connection closed; transfer aborted")

    def receive(self, path, append):
        if self.data_listener is None:
            self.send("425 Use EPSV first")
            return
        listener, self.data_listener = self.data_listener, None
        listener.settimeout(10)
        conn, _ = listener.accept()
        listener.close()
        self.send("150 Ready")
        if self.mode in REST_MODES and not self.rest:
            with FolderSession.lock:
                first = path not in FolderSession.cut
                FolderSession.cut.add(path)
            if first:
                self.cut_store(conn, path)
                return
        if self.mode == "zero-append" and not append:
            with FolderSession.lock:
                first, FolderSession.stalled = not FolderSession.stalled, True
            if first:
                self.cut_store(conn, path)
                return
        if self.mode == "slow-old-store":
            with FolderSession.lock:
                first, FolderSession.stalled = not FolderSession.stalled, True
            if first:
                self.outlive(conn, path)
                return
        data = bytearray()
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        conn.close()
        if self.mode == "short-store":
            data = data[: len(data) // 2]
        if self.mode == "zero-append" and append:
            data = bytes(len(data))
        if self.mode in REST_MODES and self.rest:
            with open(path, "wb") as f:
                if self.mode == "rest-zero-fill":
                    f.seek(self.rest)
                f.write(data)
            self.rest = 0
            self.send("226 Transfer complete")
            return
        if append:
            how = "ab"
        else:
            how = "r+b" if self.rest and os.path.exists(path) else "wb"
        with open(path, how) as f:
            if how == "r+b":
                f.seek(self.rest)
                f.truncate()
            f.write(data)
        self.rest = 0
        self.send("226 Transfer complete")

    def outlive(self, conn, path):
        with open(path, "wb") as f:
            got = 0
            while got < 65536:
                chunk = conn.recv(65536 - got)
                if not chunk:
                    break
                f.write(chunk)
                got += len(chunk)
            f.flush()
            time.sleep(float(os.environ.get("HOSTILE_STALL", "3")))
            try:
                while True:
                    chunk = conn.recv(16384)
                    if not chunk:
                        break
                    f.write(chunk)
                    f.flush()
                    time.sleep(0.08)
            except OSError:
                pass
        conn.close()
        self.send("226 Transfer complete")

    def command(self, verb, arg):
        print("CMD", verb, arg, file=sys.stderr, flush=True)
        if self.stall_next:
            time.sleep(120)
            return False
        try:
            return self.folder_command(verb, arg)
        except OSError as error:
            self.send("550 %s" % error)
            return True

    def folder_command(self, verb, arg):
        if verb == "FEAT":
            self.send("211-Features:")
            for feature in ["MLST type*;size*;modify*;", "SIZE", "MDTM", "MFMT", "REST STREAM", "UTF8"]:
                self.send(" " + feature)
            self.send("211 End")
        elif verb == "MLSD":
            folder = self.local(arg)
            lines = []
            for name in sorted(os.listdir(folder)):
                info = os.stat(os.path.join(folder, name))
                stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(info.st_mtime))
                kind = "dir" if os.path.isdir(os.path.join(folder, name)) else "file"
                lines.append(f"type={kind};size={info.st_size};modify={stamp}; {name}")
            self.transfer("".join(l + "\r\n" for l in lines).encode("utf-8", "surrogateescape"))
        elif verb == "SIZE":
            path = self.local(arg)
            if self.mode == "short-store":
                self.send("502 SIZE not implemented")
            elif not os.path.isfile(path):
                self.send("550 No such file")
            else:
                extra = 1000 if self.mode == "wrong-size" and arg.endswith(".ftpsync-part") else 0
                self.send("213 %d" % (os.path.getsize(path) + extra))
        elif verb == "MDTM":
            self.send("213 " + time.strftime("%Y%m%d%H%M%S", time.gmtime(os.stat(self.local(arg)).st_mtime)))
        elif verb == "MFMT":
            stamp, _, name = arg.partition(" ")
            when = calendar.timegm(time.strptime(stamp[:14], "%Y%m%d%H%M%S"))
            os.utime(self.local(name), (when, when))
            self.send("213 Modify=%s; %s" % (stamp, name))
        elif verb == "APPE" and self.mode in REST_MODES:
            self.send("502 APPE not implemented")
        elif verb in ("STOR", "APPE"):
            self.receive(self.local(arg), verb == "APPE")
        elif verb == "RETR":
            with open(self.local(arg), "rb") as f:
                f.seek(self.rest)
                payload = f.read()
            self.rest = 0
            self.transfer(payload)
        elif verb == "RNFR":
            self.rename_from = self.local(arg)
            self.send("350 Ready for RNTO" if os.path.exists(self.rename_from) else "550 No such file")
        elif verb == "RNTO" and self.mode == "rnto-fails-after-dele" and os.path.exists(self.local(arg)):
            self.send("550 %s: File exists" % arg)
        elif verb == "RNTO" and self.mode == "rnto-fails-after-dele" and FolderSession.deleted == 1:
            FolderSession.deleted = 2
            self.send("553 Permission denied")
        elif verb == "RNTO" and self.mode == "refuse-overwrite-rnto" and os.path.exists(self.local(arg)):
            self.send("550 %s: File exists" % arg)
        elif verb == "RNTO" and self.mode == "lying-rnto" and os.path.exists(self.local(arg)):
            self.send("250 Renamed")
        elif verb == "RNTO":
            replaces = os.path.exists(self.local(arg))
            if self.mode == "stall-on-rnto" and replaces:
                with FolderSession.lock:
                    first = not FolderSession.stalled
                    FolderSession.stalled = True
                if first:
                    return  # neither renamed nor answered: the client is killed meanwhile
            os.replace(self.rename_from, self.local(arg))
            self.send("250 Renamed")
            if self.mode == "stall-after-rnto" and replaces:
                with FolderSession.lock:
                    if not FolderSession.stalled:
                        FolderSession.stalled = self.stall_next = True
        elif verb == "MKD":
            os.mkdir(self.local(arg))
            self.send('257 "%s" created' % arg)
        elif verb == "DELE":
            os.unlink(self.local(arg))
            FolderSession.deleted = FolderSession.deleted or 1
            self.send("250 Deleted")
        elif verb == "RMD":
            os.rmdir(self.local(arg))
            self.send("250 Removed")
        else:
            return super().command(verb, arg)
        return True


FOLDER_MODES = ("folder", "stall-after-rnto", "stall-on-rnto", "short-store", "wrong-size", "slow-old-store", "zero-append",
                "refuse-overwrite-rnto", "lying-rnto", "rest-keeps-tail", "rest-zero-fill", "rnto-fails-after-dele")
REST_MODES = ("rest-keeps-tail", "rest-zero-fill")
# Folder modes that log every command on stderr as "CMD VERB ARG", like the tree modes.
LOGGED_FOLDER_MODES = ("refuse-overwrite-rnto", "lying-rnto", "rnto-fails-after-dele") + REST_MODES


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mode, addr = sys.argv[1], sys.argv[2]
    port = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if not addr.startswith("127."):
        sys.exit("loopback addresses only")
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((addr, port))
    server.listen(16)
    fingerprint = make_tls_contexts(mode) if mode.startswith("tls-") else None
    print(server.getsockname()[1], flush=True)
    if fingerprint:
        print(fingerprint, flush=True)
    tree = Tree(mode) if mode in TREE_MODES else None
    while True:
        conn, _ = server.accept()
        if mode in FOLDER_MODES:
            FolderSession(conn, mode, os.environ["HOSTILE_ROOT"]).start()
        else:
            (TreeSession(conn, mode, tree) if tree else Session(conn, mode)).start()


if __name__ == "__main__":
    main()
