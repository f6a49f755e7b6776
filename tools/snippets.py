"""Run snippets, record their output, check records against fresh runs.

A snippet is a standalone script under ``snippets/`` (``python snippets/x/y.py`` works).
Its named sections (``# --8<-- [start:name]`` ... ``# --8<-- [end:name]``, at top level)
are embedded into pages. The runner executes the file chunk by chunk, in one namespace,
and writes what each chunk prints to the record ``y.out`` beside it, wrapped in the same
section markers, so a page can show ``y.out:name`` right under ``y.py:name``.

Header comments (first lines of the file) declare needs:
    # requires: cuda      -> gpu-marked; skipped without CUDA
    # runner: subprocess  -> run in a fresh interpreter (e.g. multiprocessing with spawn)
    # timeout: 300        -> seconds (default 120)
    # cpu-smoke: yes      -> a CUDA snippet that the normal suite also runs on CPU with
                             SNIPPET_SMOKE=1 set (tiny sizes, record not compared)

Usage:
    python -m tools.snippets record [PATH ...]   # refresh records (default: all snippets;
                                                 # a folder means the snippets under it)
    python -m tools.snippets check  [PATH ...]   # compare records with fresh runs
    python -m tools.snippets run PATH            # run one and print its record
"""

from __future__ import annotations

import difflib
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
RECORD_SUFFIX = ".out"
DEFAULT_TIMEOUT = 120
REFRESH_HINT = "make outputs  (or: .venv/bin/python -m tools.snippets record {path})"

_MARKER = re.compile(r"^(?P<indent>[ \t]*)#\s*-{1,}8<-{1,}\s+\[\s*(?P<type>start|end)\s*:\s*(?P<name>[a-z][-_0-9a-z]*)\s*\]\s*$")
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{8,}\b")
_HEADER = re.compile(r"^#\s*(?P<key>requires|runner|timeout|cpu-smoke)\s*:\s*(?P<value>\S+)\s*$")


class SnippetError(RuntimeError):
    """A snippet is malformed, failed, or its record is stale; the message says what to do."""


@dataclass
class Chunk:
    name: str | None  # section name, or None for code between sections
    first_line: int  # 1-based line number of the chunk's first line
    code: str


@dataclass
class Snippet:
    path: Path
    chunks: list[Chunk]
    requires: set[str] = field(default_factory=set)
    runner: str = "fork"
    timeout: int = DEFAULT_TIMEOUT
    cpu_smoke: bool = False  # a CUDA snippet that can also run tiny on CPU (SNIPPET_SMOKE=1)

    @property
    def rel(self) -> str:
        return rel(self.path)

    @property
    def record_path(self) -> Path:
        return self.path.with_suffix(RECORD_SUFFIX)

    @property
    def needs_cuda(self) -> bool:
        return "cuda" in self.requires


def rel(path: Path) -> str:
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def all_snippets() -> list[Path]:
    return sorted(p for p in SNIPPETS.rglob("*.py") if p.name != "__init__.py")


def parse(path: Path) -> Snippet:
    """Split a snippet into chunks at its section markers and read its header."""
    path = Path(path)
    if not path.is_file():
        raise SnippetError(f"No snippet file at {path}. Check the path (snippets live under snippets/).")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    snippet = Snippet(path=path.resolve(), chunks=[])
    for line in lines:
        if not line.startswith("#"):
            break
        m = _HEADER.match(line.strip())
        if m:
            key, value = m["key"], m["value"]
            if key == "requires":
                snippet.requires.update(v for v in value.split(",") if v)
            elif key == "runner":
                if value not in ("fork", "subprocess"):
                    raise SnippetError(f"{rel(path)}: unknown runner {value!r} (use fork or subprocess).")
                snippet.runner = value
            elif key == "cpu-smoke":
                snippet.cpu_smoke = value.lower() in ("yes", "true", "1")
            else:
                snippet.timeout = int(value)
    current: str | None = None
    buf: list[str] = []
    start = 1
    seen: set[str] = set()

    def flush(next_start: int) -> None:
        nonlocal buf, start
        if any(s.strip() for s in buf) or current is not None:
            snippet.chunks.append(Chunk(current, start, "".join(buf)))
        buf = []
        start = next_start

    for no, line in enumerate(lines, 1):
        m = _MARKER.match(line.rstrip("\n"))
        if not m:
            buf.append(line)
            continue
        where = f"{rel(path)}:{no}"
        if m["indent"]:
            raise SnippetError(f"{where}: section markers must start at column 0 (top level).")
        if m["type"] == "start":
            if current is not None:
                raise SnippetError(f"{where}: section {m['name']!r} starts inside {current!r}; sections cannot nest.")
            if m["name"] in seen:
                raise SnippetError(f"{where}: section {m['name']!r} is defined twice.")
            flush(no + 1)
            current = m["name"]
            seen.add(current)
        else:
            if current != m["name"]:
                raise SnippetError(f"{where}: end of section {m['name']!r} without its start.")
            flush(no + 1)
            current = None
    if current is not None:
        raise SnippetError(f"{rel(path)}: section {current!r} is never closed.")
    flush(len(lines) + 1)
    return snippet


def format_record(snippet: Snippet, outputs: list[str]) -> str:
    """Join chunk outputs; named chunks get section markers so pages can embed them."""
    parts = []
    for chunk, out in zip(snippet.chunks, outputs):
        if chunk.name is None:
            parts.append(out)
        else:
            if out and not out.endswith("\n"):
                out += "\n"
            parts.append(f"# --8<-- [start:{chunk.name}]\n{out}# --8<-- [end:{chunk.name}]\n")
    return "".join(parts)


# --------------------------------------------------------------------------- execution
def _exec_chunks(snippet: Snippet, out_dir: Path) -> None:
    """Run in the child: execute chunks in one namespace, fd 1 redirected per chunk."""
    import types

    os.chdir(tempfile.mkdtemp(prefix="snippet-cwd-"))  # snippets must not write into the repo
    sys.argv = [str(snippet.path)]
    sys.path.insert(0, str(snippet.path.parent))
    module = types.ModuleType("__main__")
    module.__file__ = str(snippet.path)
    module.__builtins__ = __builtins__
    sys.modules["__main__"] = module
    for i, chunk in enumerate(snippet.chunks):
        sys.stdout.flush()
        fd = os.open(out_dir / f"{i}.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.close(fd)
        # pad so tracebacks show the file's own line numbers
        code = compile("\n" * (chunk.first_line - 1) + chunk.code, str(snippet.path), "exec")
        exec(code, module.__dict__)
        sys.stdout.flush()


def _collect(snippet: Snippet, out_dir: Path) -> str:
    outs = []
    for i in range(len(snippet.chunks)):
        p = out_dir / f"{i}.txt"
        outs.append(p.read_text(encoding="utf-8") if p.exists() else "")
    return format_record(snippet, outs)


def run(path: Path, zygote: Zygote | None = None, env: dict[str, str] | None = None) -> str:
    """Run a snippet and return its record text. Raises SnippetError on failure.

    ``env`` adds environment variables for this run (e.g. ``SNIPPET_SMOKE=1``).
    """
    snippet = parse(path)
    env = dict(env or {})
    with tempfile.TemporaryDirectory(prefix="snippet-out-") as tmp:
        out_dir = Path(tmp)
        if snippet.runner == "fork" and zygote is not None:
            rc, err = zygote.run(snippet, out_dir, env)
        else:
            proc = subprocess.run(
                [sys.executable, "-m", "tools.snippets", "_exec", str(snippet.path), str(out_dir)],
                cwd=ROOT,
                env={**snippet_env(), **env},
                capture_output=True,
                text=True,
                timeout=snippet.timeout,
            )
            rc, err = proc.returncode, proc.stderr
        if rc != 0:
            tail = "\n".join(err.strip().splitlines()[-30:])
            raise SnippetError(
                f"{snippet.rel} failed (exit {rc}):\n{tail}\n"
                f"Reproduce with: .venv/bin/python {snippet.rel}"
            )
        text = _collect(snippet, out_dir)
    address = _ADDRESS.search(text)
    if address:
        raise SnippetError(
            f"{snippet.rel} printed a memory address ({address.group(0)}), which changes on "
            "every run. Print something stable instead, e.g. type(t.grad_fn).__name__ "
            "or a comparison of data_ptr() values."
        )
    return text


def snippet_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONHASHSEED"] = "0"
    env.setdefault("MPLBACKEND", "Agg")
    env.setdefault("OMP_NUM_THREADS", "1")  # same float summation order on every machine
    return env


class Zygote:
    """A warm interpreter (torch already imported) that forks one child per snippet.

    It never runs tensor code itself, so forking it is safe; it saves the ~2 s import
    of torch per snippet.
    """

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools.snippets", "_zygote"],
            cwd=ROOT,
            env=snippet_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        ready = self.proc.stdout.readline()
        if ready.strip() != "ready":
            raise RuntimeError(f"snippet zygote failed to start: {ready!r}")

    def run(self, snippet: Snippet, out_dir: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
        req = {"path": str(snippet.path), "out": str(out_dir), "timeout": snippet.timeout, "env": env or {}}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("snippet zygote died")
        reply = json.loads(line)
        return reply["rc"], reply["stderr"]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _zygote_main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import numpy  # noqa: F401
    import torch  # noqa: F401
    import torch.nn  # noqa: F401

    import autograd_lens  # noqa: F401

    print("ready", flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        out_dir = Path(req["out"])
        err_path = out_dir / "stderr.txt"
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.setsid()
                devnull = os.open(os.devnull, os.O_RDONLY)
                os.dup2(devnull, 0)  # stdin carries the zygote's requests
                os.close(devnull)
                fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                os.dup2(fd, 2)
                os.close(fd)
                os.environ.update(req.get("env", {}))
                _exec_chunks(parse(Path(req["path"])), out_dir)
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
        deadline = time.monotonic() + req["timeout"]
        rc = None
        while rc is None:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                rc = -9
                with open(err_path, "a") as f:
                    f.write(f"\nTimed out after {req['timeout']} s (raise it with a '# timeout: N' header).\n")
                break
            select.select([], [], [], 0.02)
        err = err_path.read_text(encoding="utf-8", errors="replace") if err_path.exists() else ""
        print(json.dumps({"rc": rc, "stderr": err}), flush=True)


# --------------------------------------------------------------------------- records
def check(path: Path, zygote: Zygote | None = None) -> None:
    """Raise SnippetError with a diff when the record differs from a fresh run."""
    snippet = parse(path)
    fresh = run(path, zygote)
    record = snippet.record_path
    hint = REFRESH_HINT.format(path=snippet.rel)
    if not record.exists():
        raise SnippetError(f"{snippet.rel} has no recorded output ({rel(record)}). Create it with: {hint}")
    old = record.read_text(encoding="utf-8")
    if old != fresh:
        diff = "".join(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                fresh.splitlines(keepends=True),
                fromfile=f"{rel(record)} (recorded)",
                tofile=f"{snippet.rel} (fresh run)",
            )
        )
        raise SnippetError(
            f"Recorded output of {snippet.rel} is stale:\n{diff}\n"
            f"If the fresh output is right, refresh the record with: {hint}"
        )


def record(path: Path, zygote: Zygote | None = None) -> bool:
    """Write the record; return True if it changed."""
    snippet = parse(path)
    fresh = run(path, zygote)
    old = snippet.record_path.read_text(encoding="utf-8") if snippet.record_path.exists() else None
    if old != fresh:
        snippet.record_path.write_text(fresh, encoding="utf-8")
        return True
    return False


def _expand(paths: list[Path]) -> list[Path]:
    """Folders stand for the snippets under them."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.py") if q.name != "__init__.py"))
        else:
            out.append(p)
    return out


def _cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def main(argv: list[str]) -> int:
    if argv[:1] == ["_zygote"]:
        _zygote_main()
        return 0
    if argv[:1] == ["_exec"] and len(argv) == 3:
        _exec_chunks(parse(Path(argv[1])), Path(argv[2]))
        return 0
    if not argv or argv[0] not in ("record", "check", "run"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd, targets = argv[0], _expand([Path(a) for a in argv[1:]]) or all_snippets()
    if cmd == "run":
        if len(targets) != 1:
            print("run takes exactly one snippet path", file=sys.stderr)
            return 2
        sys.stdout.write(run(targets[0]))
        return 0
    zygote = Zygote()
    failures = 0
    try:
        cuda = None
        for path in targets:
            snippet = parse(path)
            if snippet.needs_cuda:
                cuda = _cuda_available() if cuda is None else cuda
                if not cuda:
                    print(f"skip     {snippet.rel} (needs CUDA; record it on a GPU machine)")
                    continue
            try:
                if cmd == "record":
                    changed = record(path, zygote)
                    print(f"{'updated' if changed else 'same':8} {snippet.rel}")
                else:
                    check(path, zygote)
                    print(f"ok       {snippet.rel}")
            except SnippetError as err:
                failures += 1
                print(f"FAILED   {snippet.rel}\n{err}\n", file=sys.stderr)
    finally:
        zygote.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main(sys.argv[1:]))
