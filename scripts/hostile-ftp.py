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

Folder modes serve the real folder named by $HOSTILE_ROOT (uploads land there; MLSD, SIZE,
MDTM, MFMT, STOR, APPE, REST, RNFR/RNTO, MKD, DELE, RMD work), each with one fault:

  folder     no fault.
  stall-after-rnto
             after the first RNTO this server carries out over an existing file, the next
             command of that session is never answered (the device lost right after the
             rename; the test kills the client meanwhile). Later sessions are served normally.
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
"""

import calendar
import os
import socket
import sys
import threading
import time

GOOD = {"good.txt": b"good content\n", "sub/good2.txt": b"second good file\n"}
THREE = {"a.txt": b"first\n", "b.txt": b"second\n", "c.txt": b"third\n"}
BAD_ROOT = ["../escape.txt", "a/../../b", "/etc/x", "nul\0name.txt", "cr\rname.txt", "lf\nname.txt"]
STAMP = "20240501102000"


LONG = "x" * 296 + ".txt"


def mlsd_lines(folder, mode=""):
    if mode == "extra-reply":
        return [f"type=file;size={len(data)};modify={STAMP}; {name}" for name, data in THREE.items()]
    if mode == "longname":
        return [f"type=file;size=13;modify={STAMP}; good.txt", f"type=file;size=7;modify={STAMP}; {LONG}"]
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


class Session(threading.Thread):
    def __init__(self, conn, mode):
        super().__init__(daemon=True)
        self.conn, self.mode = conn, mode
        self.data_listener = None
        self.rest = 0
        self.extra_sent = False

    def send(self, text):
        self.conn.sendall(text.encode("utf-8", "surrogateescape") + b"\r\n")

    def run(self):
        try:
            self.serve()
        except OSError:
            pass
        finally:
            self.conn.close()

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
        self.send("220 hostile test server")
        reader = self.conn.makefile("rb")
        for raw in reader:
            line = raw.rstrip(b"\r\n").decode("utf-8", "surrogateescape")
            verb, _, arg = line.partition(" ")
            verb = verb.upper()
            if mode == "sequence":
                self.send("226 Transfer complete" if verb == "USER" else "200 whatever")
                continue
            if not self.command(verb, arg):
                return

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
        conn.sendall(payload)
        conn.close()
        self.send("226 Transfer complete")
        if self.mode == "extra-reply" and retrieving and not self.extra_sent:
            self.extra_sent = True
            self.send("226 Transfer complete")

    def command(self, verb, arg):
        list_only = self.mode == "names-list"
        if verb == "USER":
            self.send("331 Password please")
        elif verb == "PASS":
            self.send("230 Logged in")
        elif verb == "FEAT":
            self.send("211-Features:")
            for feature in ([] if list_only else ["MLST type*;size*;modify*;"]) + ["SIZE", "MDTM", "REST STREAM"]:
                self.send(" " + feature)
            self.send("211 End")
        elif verb in ("TYPE", "OPTS", "NOOP"):
            self.send("200 OK")
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
            self.transfer("".join(l + "\r\n" for l in lines).encode("utf-8", "surrogateescape"))
        elif verb == "RETR":
            name = arg.lstrip("/")
            files = THREE if self.mode == "extra-reply" else GOOD
            payload = files.get(name, b"ESCAPED")[self.rest:]
            self.rest = 0
            self.transfer(payload, retrieving=True)
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


class FolderSession(Session):
    """A working server over the folder $HOSTILE_ROOT, with the fault of its mode."""

    stalled = False
    lock = threading.Lock()

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

    def receive(self, path, append):
        if self.data_listener is None:
            self.send("425 Use EPSV first")
            return
        listener, self.data_listener = self.data_listener, None
        listener.settimeout(10)
        conn, _ = listener.accept()
        listener.close()
        self.send("150 Ready")
        if self.mode == "zero-append" and not append:
            with FolderSession.lock:
                first, FolderSession.stalled = not FolderSession.stalled, True
            if first:
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
        elif verb == "RNTO":
            replaces = os.path.exists(self.local(arg))
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
            self.send("250 Deleted")
        elif verb == "RMD":
            os.rmdir(self.local(arg))
            self.send("250 Removed")
        else:
            return super().command(verb, arg)
        return True


FOLDER_MODES = ("folder", "stall-after-rnto", "short-store", "wrong-size", "slow-old-store", "zero-append")


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
    print(server.getsockname()[1], flush=True)
    while True:
        conn, _ = server.accept()
        if mode in FOLDER_MODES:
            FolderSession(conn, mode, os.environ["HOSTILE_ROOT"]).start()
        else:
            Session(conn, mode).start()


if __name__ == "__main__":
    main()
