"""Writing generated files: whole or not at all, and one line when it cannot be done.

Every file a tool generates (records, FAQ pages, downloads, result files, word lists)
goes through ``write_text``: the text is written to a temporary file in the same
folder and renamed over the target, so an interrupted run, a full disk or a size limit
leaves the old file as it was, never a truncated one. An ``OSError`` becomes a
``ToolError`` that names the file, the cause and what to do.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import rel

TMP_PREFIX = ".tmp-"  # temporary files of an atomic write (other tools ignore them)

_FIX = {
    errno.ENOSPC: "the disk is full: free some space, then run the command again",
    errno.EDQUOT: "the disk quota is used up: free some space, then run the command again",
    errno.EFBIG: "the file is larger than this shell allows (ulimit -f): raise the limit, then run again",
    errno.EROFS: "the file system is read-only: work in a writable checkout",
    errno.EACCES: "you may not write there: fix the folder's permissions (or choose another folder)",
    errno.EPERM: "you may not write there: fix the folder's permissions (or choose another folder)",
    errno.ENOENT: "the folder does not exist: create it, or give another one",
    errno.ENOTDIR: "a part of the path is a file, not a folder: give another folder",
}


def os_error_message(err: OSError, path: Path | str, doing: str = "write") -> str:
    """One line: which file, what went wrong, what to do."""
    why = os.strerror(err.errno) if err.errno else str(err)
    fix = _FIX.get(err.errno, "check the path and the disk, then run the command again")
    return f"Cannot {doing} {rel(path)}: {why}; {fix}. Nothing was changed there."


def write_text(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically; a ToolError if it cannot."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: Path | str, data: bytes) -> None:
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + path.name + ".", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
        tmp = None
    except OSError as err:
        raise ToolError(os_error_message(err, path)) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
