#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""Write a tar archive of a tree of FILES small files, PER to a folder, to standard output.

    make-tree.py FILES [PER] | tar -x -C DEST

Folders d00000, d00001, ... each hold PER files (default 1,000) f000.txt, f001.txt, ...;
the last folder holds what is left. Every file's content is its own path and a newline
(16 bytes): unique, so a file delivered under the wrong name shows in `diff -r`. Times are
fixed (2026-01-01 00:00 UTC), so the same FILES always gives the same archive. Folders are
written before their files; the archive is streamed (nothing is held in memory).
"""

import io
import sys
import tarfile

MTIME = 1767225600  # 2026-01-01 00:00:00 UTC


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: make-tree.py FILES [PER]")
    files = int(sys.argv[1])
    per = int(sys.argv[2]) if len(sys.argv) == 3 else 1000
    if files < 0 or per < 1:
        sys.exit("make-tree.py: FILES must be >= 0 and PER >= 1")
    digits = max(3, len(str(per - 1)))
    folders = (files + per - 1) // per
    with tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.USTAR_FORMAT) as tar:
        for d in range(folders):
            folder = tarfile.TarInfo(f"d{d:05d}")
            folder.type, folder.mode, folder.mtime = tarfile.DIRTYPE, 0o755, MTIME
            tar.addfile(folder)
            for f in range(min(per, files - d * per)):
                name = f"d{d:05d}/f{f:0{digits}d}.txt"
                data = (name + "\n").encode()
                entry = tarfile.TarInfo(name)
                entry.size, entry.mode, entry.mtime = len(data), 0o644, MTIME
                tar.addfile(entry, io.BytesIO(data))


if __name__ == "__main__":
    main()
