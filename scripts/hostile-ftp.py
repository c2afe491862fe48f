#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""A deliberately misbehaving FTP server for ftpsync's fault tests (loopback only).

Usage: hostile-ftp.py MODE ADDR [PORT]
Prints "PORT" on stdout once listening (PORT 0 = pick a free one), then serves until killed.
Every connection is handled on its own thread. MODE:

  names      a working server whose root listing holds hostile names: ../escape.txt,
             a/../../b, /etc/x, names with NUL, CR and LF, "." and "..", and a folder "sub"
             whose listing holds ../../escape2.txt. Good files: good.txt, sub/good2.txt.
             RETR of any name answers with that name's content (a bad name gets "ESCAPED").
  names-list the same with LIST only (no MLSD in FEAT, MLSD answers 500); `LIST -a` lists as LIST.
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
  cut-retr   RETR of a file whose name holds "cut" sends no byte past its 16384th, resets
             the data connection and answers 426, every time (a download that never completes,
             however it is resumed).
  grow-after-retr
             the first time a file whose name holds "grow" (over 16 KiB) was sent by RETR,
             4 bytes are appended to it (a device still writing the file).
  lying-dele DELE of a file whose name holds "stuck" answers "250 Deleted" and deletes
             nothing (a read-only card, a server that lies); other DELEs work.
  rest-keeps-tail, rest-zero-fill
             the first STOR of each file is cut after 64 KiB (426); APPE is refused (502); a
             STOR after REST N keeps only the bytes it gets (rest-keeps-tail: the file is the
             tail alone) or writes them at N over zeros (rest-zero-fill: the head is lost).
             STOR without REST works.
"""

import os
import socket
import sys

from hostile.base import Session, make_tls_contexts
from hostile.folder import FOLDER_MODES, FolderSession
from hostile.tree import TREE_MODES, Tree, TreeSession


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
