"""Run a page's reader script (tools/downloads/files.py writes it) as a reader would.

Every page's blocks run as pytest-codeblocks items (tests/support/codeblocks.py), and
``tests/tooling/test_downloads.py`` runs some in a fresh virtual environment, so what a
reader downloads is what was tested.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tools.core.repo import child_env, rel
from tools.pages.code import PageCode
from tools.snippets.records import wrap_output
from tools.snippets.runner import ForkServer, run_command
from tools.snippets.source import SnippetError, parse
from tools.snippets.worker import TIMEOUT_EXIT

ERROR_TAIL_LINES = 30  # of a failing script's stderr, in the error


def expected_stdout(code: PageCode) -> str:
    """What the script prints (after ``normalise_output``): the recorded outputs of
    its blocks, in page order."""
    return "".join(b.output for b in code.blocks if not b.skip)


def normalise_output(text: str) -> str:
    """What a run prints, as the snippet runner records it (long lines wrapped)."""
    return wrap_output(text)


def run_script(
    path: Path,
    code: PageCode,
    server: ForkServer | None = None,
    *,
    python: Path | str | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> str:
    """Run a reader script as a file and return its stdout; SnippetError on failure.

    With a fork server (torch already imported) unless the page needs a fresh
    interpreter or ``python`` is given; otherwise ``python <page>.py`` (this
    interpreter by default, with ``child_env()`` by default) in ``cwd``, an empty
    temporary folder by default, as a reader runs it.
    """
    if server is not None and python is None and not code.needs_fresh_interpreter:
        rc, err, out = _run_forked(path, code, server)
    elif cwd is not None:
        rc, err, out = _run_process(path, code, python, env, Path(cwd))
    else:
        with tempfile.TemporaryDirectory(prefix="page-script-") as tmp:
            rc, err, out = _run_process(path, code, python, env, Path(tmp))
    if rc != 0:
        tail = "\n".join(err.strip().splitlines()[-ERROR_TAIL_LINES:])
        raise SnippetError(f"{rel(path)} failed (exit {rc}):\n{tail}")
    return out


def _run_forked(path: Path, code: PageCode, server: ForkServer) -> tuple[int, str, str]:
    snippet = parse(path)
    snippet.timeout = code.timeout
    with tempfile.TemporaryDirectory(prefix="page-script-") as tmp:
        rc, err = server.run(snippet, Path(tmp))
        out = Path(tmp, "0.txt").read_text(encoding="utf-8") if Path(tmp, "0.txt").exists() else ""
    return rc, err, out


def _run_process(
    path: Path, code: PageCode, python: Path | str | None, env: dict[str, str] | None, cwd: Path
) -> tuple[int, str, str]:
    argv = [str(python or sys.executable), str(Path(path).resolve())]
    rc, out, err = run_command(
        argv, cwd=cwd, env=child_env() if env is None else env, timeout=code.timeout, stdout=True
    )
    if rc == TIMEOUT_EXIT:
        raise SnippetError(f"{rel(path)} timed out after {code.timeout} s") from None
    return rc, err, out
