# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""hostile-ftp.py's tree modes: a working in-memory tree that lists one folder badly."""

from hostile.base import *  # noqa: F401,F403


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
        log_line("CMD %s %s" % (verb, arg))
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
            send_features(self.send, ["MLST type*;size*;modify*;", "SIZE", "MDTM", "MFMT", "REST STREAM", "UTF8"])
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
