"""What a running snippet touches, watched from inside the child (an audit hook).

A reader runs a downloaded snippet in their own folder, without this repository. So
the child notes, per run:
  inputs    the repository files the snippet opened or imported (a record's stamp
            covers them: a change to ``src/autograd_lens/`` or to the data a snippet
            reads makes its record stale, see ``tools.snippets.stamp``);
  problems  a write outside a temporary folder the snippet made itself (into the
            repository, or the working folder a reader would find littered), and a
            read of a file that exists only on this machine (not in the repository,
            not installed, not made by the run).
The notes go to ``guard.json`` in the run's output folder; ``tools.snippets.runner``
turns problems into an error naming the section and line.

A second run may shift the clock (``SNIPPET_CLOCK_SHIFT_DAYS``) so that output which
depends on today's date differs between the two runs instead of failing tomorrow.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import site
import sys
import tempfile
import time
from pathlib import Path

GUARD_FILE = "guard.json"
CLOCK_SHIFT = "SNIPPET_CLOCK_SHIFT_DAYS"  # set by the runner for a second run
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


# Tool caches in the home folder that the libraries read and write themselves (fonts,
# compiled kernels); anything else there is the author's own and a reader has none of it.
HOME_CACHES = (".cache/matplotlib", ".config/matplotlib", ".cache/fontconfig", ".fontconfig",
               ".triton", ".nv", ".cache/torch/kernels", ".cache/torch_extensions")  # fmt: skip
# Addresses a snippet may connect to: none on a network (a reader may be offline, and a
# record must not depend on a server). Local sockets (multiprocessing) are fine.
LOCAL_HOSTS = {"", "localhost", "127.0.0.1", "::1", None}


def _readonly_roots(root: Path) -> list[str]:
    """Places a snippet may read from besides the repository: the interpreter,
    installed packages, the system, and the libraries' own caches (not the rest of
    the home folder: a file there exists only on the author's machine)."""
    home = Path.home()
    roots = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        *site.getsitepackages(),
        site.getusersitepackages(),
        *(p for p in sys.path if p and "-packages" in p),
        "/usr",
        "/lib",
        "/lib64",
        "/etc",
        "/dev",
        "/proc",
        "/sys",
        "/opt",
        "/var/cache",
        *(str(home / c) for c in HOME_CACHES),
    }
    # compared with real paths: a venv may be a symlink (a clone sharing one)
    return sorted({os.path.realpath(r) for r in roots if r and r != "/"})


class Guard:
    def __init__(self, root: Path, out_dir: Path, snippet: Path) -> None:
        self.root = str(root.resolve())
        self.snippet = str(snippet.resolve())
        self.out_dir = str(out_dir.resolve())
        self.readonly = _readonly_roots(root)
        tmp = os.path.realpath(tempfile.gettempdir())
        # folders the run may write into: its own temporary ones, torch's caches
        home = Path.home()
        self.writable = [
            self.out_dir,
            f"{tmp}/torchinductor_",
            *(os.path.realpath(home / c) for c in HOME_CACHES),
        ]
        self.made: set[str] = set()  # temp dirs and files the run created
        self.inputs: set[str] = set()
        self.problems: list[dict] = []
        self.section = "(outside sections)"
        self.active = False
        self.unmet: list[str] = []  # declared warnings/errors that did not happen

    # -- the audit hook ------------------------------------------------------------
    def __call__(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        if event == "tempfile.mkdtemp" or event == "tempfile.mkstemp":
            self.made.add(os.path.realpath(args[0]))
        elif event == "open":
            self._open(*args)
        elif event == "urllib.Request":
            self._problem("network", str(args[0]))
        elif event == "socket.connect":
            self._connect(*args)
        elif event == "socket.getaddrinfo" and args and args[0] not in LOCAL_HOSTS:
            host = args[0].decode() if isinstance(args[0], bytes) else str(args[0])
            if host not in LOCAL_HOSTS:
                self._problem("network", host)

    def _connect(self, sock, address, *_) -> None:
        import socket

        if getattr(sock, "family", None) == getattr(socket, "AF_UNIX", None):
            return  # a local socket (multiprocessing), not the network
        if isinstance(address, tuple) and len(address) >= 2:
            address = f"{address[0]}:{address[1]}"
        self._problem("network", str(address))

    def _open(self, path, mode=None, flags=None, *_) -> None:
        if not isinstance(path, (str, bytes, os.PathLike)):
            return  # a file descriptor
        path = os.fsdecode(path)
        full = os.path.realpath(path)
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and bool(flags & _WRITE_FLAGS)
        )
        if writing:
            if full.startswith("/dev/") or self._under(full, self.writable) or self._made(full):
                return
            if os.path.isdir(full):
                return  # O_TMPFILE: an anonymous file (tempfile.TemporaryFile), gone at close
            self.made.add(full)
            self._problem("writes", full)
            return
        if full == self.snippet or self._made(full) or full.startswith(self.out_dir):
            return
        if self._under(full, self.readonly + self.writable) or not os.path.exists(full):
            return  # installed (a venv may sit in the repository), system, or absent
        if full.startswith(self.root + os.sep):
            name = os.path.relpath(full, self.root)
            if not name.startswith("tools" + os.sep):  # the harness itself (spawn re-reads it)
                self.inputs.add(name)
            return
        self._problem("reads", full)

    def _made(self, path: str) -> bool:
        return any(path == m or path.startswith(m + os.sep) for m in self.made)

    @staticmethod
    def _under(path: str, roots: list[str]) -> bool:
        return any(path.startswith(r) for r in roots)  # a prefix: torchinductor_<user> too

    def _problem(self, what: str, path: str) -> None:
        line = None
        frame = sys._getframe(0)
        while frame is not None:
            if frame.f_code.co_filename == self.snippet:
                line = frame.f_lineno
                break
            frame = frame.f_back
        shown = os.path.relpath(path, self.root) if path.startswith(self.root + os.sep) else path
        self.problems.append({"what": what, "path": shown, "line": line, "section": self.section})

    # -- files written by C++ (torch.save, numpy) are not audited: compare listings --
    def snapshot(self) -> None:
        self.folder = os.path.dirname(self.snippet)
        self.before = set(os.listdir(self.folder))

    def _left_behind(self) -> None:
        for name in sorted(set(os.listdir(self.folder)) - self.before - {"__pycache__"}):
            if self._tools_file(name):
                continue  # another run's record (two records at once), not this snippet's doing
            self._problem("writes", os.path.join(self.folder, name))
        cwd = os.getcwd()
        if not self._made(os.path.realpath(cwd)):
            for name in sorted(os.listdir(cwd)):
                self._problem("writes", os.path.join(cwd, name))

    def _tools_file(self, name: str) -> bool:
        """A file the tools write beside snippets: a record of a snippet in the folder,
        or the temporary file of a record being written (tools.core.files)."""
        if name.startswith(".tmp-") and ".out." in name:
            return True
        stem, dot, ext = name.rpartition(".")
        return dot == "." and ext == "out" and os.path.isfile(os.path.join(self.folder, stem + ".py"))

    # -- written by the child at its end -----------------------------------------
    def write(self) -> None:
        self.active = False
        self.section = "(found after the run)"
        self._left_behind()
        data = {"inputs": sorted(self.inputs), "problems": self.problems[:20], "unmet": self.unmet}
        Path(self.out_dir, GUARD_FILE).write_text(json.dumps(data), encoding="utf-8")


def install(root: Path, out_dir: Path, snippet: Path) -> Guard:
    guard = Guard(root, out_dir, snippet)
    guard.snapshot()
    sys.addaudithook(guard)
    guard.active = True
    return guard


HOST_NAME = "SNIPPET_HOST_NAME"  # set by the runner for a second run: another machine's name


def rename_host() -> None:
    """Make ``socket.gethostname`` (and ``platform.node``, ``os.uname``) give HOST_NAME,
    so that output naming this machine differs between the two runs of ``record``."""
    name = os.environ.get(HOST_NAME)
    if not name:
        return
    import platform
    import socket

    socket.gethostname = lambda: name
    platform.node = lambda: name
    real_uname = os.uname

    def uname():
        u = real_uname()
        return os.uname_result((u.sysname, name, u.release, u.version, u.machine))

    os.uname = uname
    platform._uname_cache = None


def shift_clock() -> None:
    """Move ``time.time`` and ``datetime``'s today/now forward by CLOCK_SHIFT days."""
    days = float(os.environ.get(CLOCK_SHIFT) or 0)
    if not days:
        return
    delta = days * 86400
    real_time, real_time_ns = time.time, time.time_ns
    time.time = lambda: real_time() + delta
    time.time_ns = lambda: real_time_ns() + int(delta * 1e9)
    real_localtime, real_gmtime = time.localtime, time.gmtime
    time.localtime = lambda secs=None: real_localtime(time.time() if secs is None else secs)
    time.gmtime = lambda secs=None: real_gmtime(time.time() if secs is None else secs)

    class Date(dt.date):
        @classmethod
        def today(cls):
            return cls.fromtimestamp(time.time())

    class DateTime(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return cls.fromtimestamp(time.time(), tz)

        @classmethod
        def today(cls):
            return cls.fromtimestamp(time.time())

        @classmethod
        def utcnow(cls):
            return cls.now(dt.UTC).replace(tzinfo=None)

    dt.date, dt.datetime = Date, DateTime
