# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""hostile-ftp.py's folder modes: a real folder ($HOSTILE_ROOT) served with one fault."""

import struct

from hostile.base import *  # noqa: F401,F403


FOLDER_MODES = ("folder", "stall-after-rnto", "stall-on-rnto", "short-store", "wrong-size", "slow-old-store", "zero-append",
                "refuse-overwrite-rnto", "lying-rnto", "rest-keeps-tail", "rest-zero-fill", "rnto-fails-after-dele",
                "cut-retr", "grow-after-retr", "lying-dele")
REST_MODES = ("rest-keeps-tail", "rest-zero-fill")
# Folder modes that log every command on stderr as "CMD VERB ARG", like the tree modes.
LOGGED_FOLDER_MODES = ("refuse-overwrite-rnto", "lying-rnto", "rnto-fails-after-dele") + REST_MODES


class FolderSession(Session):
    """A working server over the folder $HOSTILE_ROOT, with the fault of its mode."""

    stalled = False
    lock = threading.Lock()
    cut = set()  # rest-*: the files whose first STOR was cut
    grown = set()  # grow-after-retr: the files grown after their first RETR
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

    def cut_retrieve(self, payload):
        """cut-retr: sends `payload`, resets the data connection and answers 426."""
        conn = self.data_connection()
        if conn is None:
            return
        self.send("150 Opening data connection")
        conn.sendall(payload)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()
        self.send("426 Connection closed; transfer aborted")

    def receive(self, path, append):
        conn = self.data_connection()
        if conn is None:
            return
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
        log_line("CMD %s %s" % (verb, arg))
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
            send_features(self.send, ["MLST type*;size*;modify*;", "SIZE", "MDTM", "MFMT", "REST STREAM", "UTF8"])
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
            start, self.rest = self.rest, 0
            if self.mode == "cut-retr" and "cut" in os.path.basename(arg) and len(payload) > 0:
                # Never past byte 16384, however it is resumed: the download cannot complete.
                self.cut_retrieve(payload[: max(0, 16384 - start)])
                return True
            self.transfer(payload)
            if self.mode == "grow-after-retr" and "grow" in os.path.basename(arg) and len(payload) > 16384:
                with FolderSession.lock:
                    first = arg not in FolderSession.grown
                    FolderSession.grown.add(arg)
                if first:
                    # The device writes on: the file grows once it was first read in full.
                    with open(self.local(arg), "ab") as f:
                        f.write(b"more")
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
            if self.mode == "lying-dele" and "stuck" in os.path.basename(arg):
                self.send("250 Deleted")
                return True
            os.unlink(self.local(arg))
            FolderSession.deleted = FolderSession.deleted or 1
            self.send("250 Deleted")
        elif verb == "RMD":
            os.rmdir(self.local(arg))
            self.send("250 Removed")
        else:
            return super().command(verb, arg)
        return True
