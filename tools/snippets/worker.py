"""The child side of running a snippet: execute its chunks, one output file each.

Started by ``tools.snippets.runner``, never by hand:
    python -m tools snippets worker exec SNIPPET OUT_DIR   # run one snippet, then exit
    python -m tools snippets worker serve                  # the fork server (see below)

The fork server imports torch once and then forks one child per request read from
stdin (a JSON line: path, out, timeout, env); it never runs tensor code itself, so
forking it is safe, and it saves the ~2 s import of torch per snippet.
"""

from __future__ import annotations

import ast
import contextlib
import faulthandler
import json
import os
import re
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback
import types
import warnings
from pathlib import Path

from tools.core.repo import ROOT
from tools.snippets import guard
from tools.snippets.source import Snippet, parse

POLL_SECONDS = 0.02  # how often the server looks at a running child
TIMEOUT_EXIT = -9  # exit code reported for a child killed at its timeout
CWD_VARIABLE = "SNIPPET_CWD"  # the working folder the runner made for this run
# Written to stderr before each chunk, so that what a release prints to stderr can be
# told by section (tools.versions.run); the runner removes these lines (split_stderr).
STDERR_SECTION = "[[snippet section]] "  # ASCII only: splitlines() also splits at control characters


def split_stderr(stderr: str) -> tuple[str, list[tuple[str | None, str]]]:
    """(stderr without the section lines, [(section name or None, its stderr), ...])."""
    plain: list[str] = []
    parts: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in stderr.splitlines(keepends=True):
        if line.startswith(STDERR_SECTION):
            name = line[len(STDERR_SECTION) :].strip()
            parts.append((name or None, []))
            continue
        plain.append(line)
        parts[-1][1].append(line)
    return "".join(plain), [(name, "".join(lines)) for name, lines in parts]


DUMP_SIGNAL = signal.SIGUSR1  # asks a running snippet where it is (faulthandler)
DUMP_GRACE_SECONDS = 2.0  # time for that stack dump before the kill


def timeout_message(timeout: float) -> str:
    return (
        f"Timed out after {timeout:g} s. The traceback above ('Current thread') shows the line "
        "it was running. If that is a loop or a wait that never ends, fix the code; if the "
        "snippet is only slow, make it smaller, or raise its limit with a '# timeout: N' "
        "header (seconds) in its first lines."
    )


def stop(pid: int) -> None:
    """Ask ``pid`` for its stack (written to its stderr), then kill its process group."""
    try:
        os.kill(pid, DUMP_SIGNAL)
    except ProcessLookupError:
        return
    time.sleep(DUMP_GRACE_SECONDS)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def exec_chunks(snippet: Snippet, out_dir: Path) -> None:
    """Execute the chunks in one namespace, fd 1 redirected to ``out_dir/<i>.txt``."""
    # On a timeout the runner sends DUMP_SIGNAL: print where every thread is, keep going.
    faulthandler.register(DUMP_SIGNAL, file=sys.stderr, all_threads=True)
    # a reader's folder, not the repo; the runner makes it and removes it after the run
    given = os.environ.pop(CWD_VARIABLE, None)
    os.chdir(given or tempfile.mkdtemp(prefix="snippet-cwd-"))
    sys.argv = [str(snippet.path)]
    sys.path.insert(0, str(snippet.path.parent))
    module = types.ModuleType("__main__")
    module.__file__ = str(snippet.path)
    module.__builtins__ = __builtins__
    sys.modules["__main__"] = module
    guard.shift_clock()
    guard.rename_host()
    watch = guard.install(ROOT, out_dir, snippet.path)
    for i, chunk in enumerate(snippet.chunks):
        watch.section = chunk.name or "(outside sections)"
        sys.stdout.flush()
        sys.stderr.flush()
        os.write(2, f"{STDERR_SECTION}{chunk.name or ''}\n".encode())
        fd = os.open(out_dir / f"{i}.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.close(fd)
        # pad so tracebacks show the file's own line numbers
        code = compile("\n" * (chunk.first_line - 1) + chunk.code, str(snippet.path), "exec")
        try:
            _exec_chunk(snippet, chunk, code, module.__dict__)
        except SystemExit as stop_early:
            # exit(0) would leave the later sections empty and their asserts unrun
            raise RuntimeError(
                f"{snippet.rel}: section {watch.section!r} calls sys.exit({stop_early.code!r}); "
                "a snippet must run to its end (skip work with an if, not by exiting)."
            ) from None
        sys.stdout.flush()
    watch.unmet = EXPECTATIONS_UNMET
    watch.write()
    if not given:  # made here (a run without the runner): leave no folder behind
        made = os.getcwd()
        os.chdir(tempfile.gettempdir())
        shutil.rmtree(made, ignore_errors=True)


# torch appends where in its C++ a warning fired: a path and line of the machine that
# built the wheel, different in every release. The rest is the message.
TRIGGERED = r"\s*\(Triggered internally at [^)]*\)\s*$"


def warning_text(message: object) -> str:
    return re.sub(TRIGGERED, "", str(message))


EXPECTATIONS_UNMET: list[str] = []  # '# warns:' / '# raises:' that did not happen


def _matches(exc_type: type, name: str) -> bool:
    return any(t.__name__ == name for t in exc_type.__mro__)


def _exec_chunk(snippet: Snippet, chunk, code, namespace: dict) -> None:
    """Run one chunk; a section declared ``# raises:`` / ``# warns:`` has its error or
    warnings printed into its output (``tools.snippets.source``)."""
    kind, name = snippet.expects.get(chunk.name or "", (None, None))
    where = f"{snippet.rel}: section {chunk.name!r}"
    if kind == "warns":
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            exec(code, namespace)
        if not any(_matches(w.category, name) for w in caught):
            # the runner refuses this on the site's torch; another release may not warn
            declared = f"'# warns: {chunk.name} {name}'"
            EXPECTATIONS_UNMET.append(f"{where} is declared {declared} but gave no {name}.")
        for w in caught:
            print(f"{w.category.__name__}: {warning_text(w.message)}")
        return
    if kind != "raises":
        exec(code, namespace)
        return
    try:
        exec(code, namespace)
    except Exception as err:
        last = ast.parse(chunk.code).body[-1].lineno + chunk.first_line - 1
        frames = traceback.extract_tb(err.__traceback__)
        # the outermost frame in the snippet: the section's own top-level statement
        line = next((f.lineno for f in frames if f.filename == str(snippet.path)), last)
        matched = _matches(type(err), name)
        if line < last:
            if not matched:
                raise
            raise RuntimeError(
                f"{where} raised {type(err).__name__} at line {line}, before its last statement "
                f"(line {last}): the rest of the section never ran. End the section with the "
                "statement that raises."
            ) from err
        if not matched:
            # the runner refuses this on the site's torch; on another release the section
            # ended as declared, with another error: a difference, and the run goes on
            declared = f"'# raises: {chunk.name} {name}'"
            EXPECTATIONS_UNMET.append(f"{where} is declared {declared} but raised {type(err).__name__}.")
        print(f"{type(err).__name__}: {err}")
    else:
        declared = f"'# raises: {chunk.name} {name}'"
        EXPECTATIONS_UNMET.append(f"{where} is declared {declared} but raised nothing.")


def _redirect(fd_target: int, path: str, flags: int) -> None:
    fd = os.open(path, flags)
    os.dup2(fd, fd_target)
    os.close(fd)


def _child(req: dict, err_path: Path) -> None:
    """In the forked child: run the snippet and exit with its status (never returns)."""
    try:
        os.setsid()
        _redirect(0, os.devnull, os.O_RDONLY)  # stdin carries the server's requests
        _redirect(2, str(err_path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.environ.update(req.get("env", {}))
        exec_chunks(parse(Path(req["path"])), Path(req["out"]))
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def _wait(pid: int, timeout: float, err_path: Path) -> int:
    """Exit code of the child, killing its process group after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            stop(pid)
            os.waitpid(pid, 0)
            with open(err_path, "a") as f:
                f.write("\n" + timeout_message(timeout) + "\n")
            return TIMEOUT_EXIT
        select.select([], [], [], POLL_SECONDS)


def serve() -> None:
    """The fork server: import the heavy modules, then serve requests from stdin."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot
    import numpy  # noqa: F401
    import torch
    import torch.nn  # noqa: F401

    import autograd_lens  # noqa: F401

    print("ready", flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        err_path = Path(req["out"]) / "stderr.txt"
        pid = os.fork()
        if pid == 0:
            _child(req, err_path)
        rc = _wait(pid, req["timeout"], err_path)
        err = err_path.read_text(encoding="utf-8", errors="replace") if err_path.exists() else ""
        print(json.dumps({"rc": rc, "stderr": err}), flush=True)
