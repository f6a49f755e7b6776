"""Run a snippet in a child process and collect what each chunk printed.

Two ways to run (a snippet's ``# runner:`` header picks one):
    fork        a child forked from a warm ``ForkServer`` (torch already imported)
    subprocess  a fresh interpreter, for code that needs one (multiprocessing spawn)
Without a server, every snippet runs in a fresh interpreter. ``run_command`` is the one
way any child is started here, also for version runs and reader scripts.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import ROOT, VENV_HINT, child_env, environment_problem
from tools.snippets import guard
from tools.snippets.source import Snippet, SnippetError
from tools.snippets.worker import CWD_VARIABLE, TIMEOUT_EXIT, split_stderr, stop, timeout_message

ERROR_TAIL_LINES = 30  # lines of a failing snippet's stderr quoted in the error
MAX_OUTPUT_LINES = 200  # per section: more is not an output a reader reads
# frames of the runner itself in a timeout's stack dump: noise for the reader
_RUNNER_FRAME = re.compile(
    r'^  File "(?:[^"]*tools/(?:snippets/(?:worker|cli)|__main__)\.py|[^"]*/click/[^"]*|<frozen runpy>)", '
    r"line \d+,? in "
)


def without_runner_frames(err: str) -> list[str]:
    """The child's stderr without the runner's own traceback frames (and their source lines)."""
    out: list[str] = []
    skipping = False
    for line in err.strip().splitlines():
        if _RUNNER_FRAME.match(line):
            skipping = True
            continue
        if skipping and line.startswith("    "):
            continue  # the frame's source line and ^^^ markers
        skipping = False
        out.append(line)
    return out


def random_hash_seed(avoid: int | None = None) -> int:
    """A PYTHONHASHSEED for a run. Snippets run under a random one, as readers do, so
    output that depends on set or dict order is caught instead of frozen."""
    while True:
        seed = random.randrange(1, 2**32)
        if seed != avoid:
            return seed


class ForkServer:
    """A warm interpreter (``python -m tools snippets worker serve``) that forks one child per run."""

    def __init__(self, hash_seed: int | None = None, env: dict[str, str] | None = None) -> None:
        self.hash_seed = hash_seed or random_hash_seed()  # forked children share it
        problem = environment_problem()  # without the venv: say so, not a child's traceback
        if problem:
            raise ToolError(problem)
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")  # noqa: SIM115 (closed by close())
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools", "snippets", "worker", "serve"],
            cwd=ROOT,
            env={**child_env(), "PYTHONHASHSEED": str(self.hash_seed), **(env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,  # the server's own errors; each child writes its own file
            text=True,
        )
        self._ready = False  # checked on first use, so that two servers start in parallel

    def _wait_ready(self) -> None:
        if not self._ready:
            ready = self.proc.stdout.readline()
            if ready.strip() != "ready":
                self.proc.wait(timeout=10)
                self._stderr.seek(0)
                lines = [line for line in self._stderr.read().strip().splitlines() if line.strip()]
                cause = lines[-1].strip() if lines else f"it exited with status {self.proc.returncode}"
                raise ToolError(
                    f"The snippet runner ({sys.executable} -m tools snippets worker serve) did not "
                    f"start: {cause}. If a package is missing, {VENV_HINT}."
                )
            self._ready = True

    def run(self, snippet: Snippet, out_dir: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
        self._wait_ready()
        req = {
            "path": str(snippet.path),
            "out": str(out_dir),
            "timeout": snippet.timeout,
            "env": env or {},
        }
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self._stderr.seek(0)
            tail = self._stderr.read().strip().splitlines()[-5:]
            stopped = f"{snippet.rel}: the snippet runner stopped while running it:\n"
            raise SnippetError(stopped + "\n".join(tail))
        reply = json.loads(line)
        return reply["rc"], reply["stderr"]

    def close(self) -> None:
        self.stop()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._stderr.close()

    def stop(self) -> None:
        """Ask the server to exit without waiting (``close`` waits)."""
        if self.proc.poll() is None and not self.proc.stdin.closed:
            self.proc.stdin.close()


def run_command(
    argv: list[str], *, cwd: Path, env: dict[str, str], timeout: float, stdout: bool = False
) -> tuple[int, str, str]:
    """Run ``argv`` in its own process group; (exit code, stdout, stderr).

    The one way a child is started (snippets, version runs, reader scripts). On a
    timeout the child is asked for its stack, then its whole group is killed (DDP
    workers included) and the exit code is ``TIMEOUT_EXIT`` with a hint appended.
    """
    with subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=True,
    ) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop(proc.pid)
            out, err = proc.communicate()
            return TIMEOUT_EXIT, out or "", f"{err}\n{timeout_message(timeout)}\n"
        return proc.returncode, out or "", err or ""


@dataclass
class Outcome:
    """One run of a snippet: exit code, stderr, and what each chunk printed
    (``None`` for a chunk the run never reached)."""

    rc: int
    stderr: str
    outputs: list[str | None]
    hash_seed: int
    inputs: list[str] = field(default_factory=list)  # repository files it opened (guard)
    problems: list[dict] = field(default_factory=list)  # writes/reads a reader cannot repeat
    unmet: list[str] = field(default_factory=list)  # a declared warning or error that did not happen
    stderr_by_section: list = field(default_factory=list)  # [(section or None, stderr)] in order

    @property
    def timed_out(self) -> bool:
        return self.rc == TIMEOUT_EXIT


def execute(
    snippet: Snippet,
    server: ForkServer | None = None,
    env: dict[str, str] | None = None,
    hash_seed: int | None = None,
) -> Outcome:
    """Run ``snippet`` once, forked from ``server`` when its header allows, else in
    a fresh interpreter; never raises for a failing snippet (see ``run``)."""
    env = dict(env or {})
    with (
        tempfile.TemporaryDirectory(prefix="snippet-out-") as tmp,
        tempfile.TemporaryDirectory(prefix="snippet-cwd-") as cwd,  # a reader's folder, removed after
    ):
        out_dir = Path(tmp)
        env[CWD_VARIABLE] = cwd
        if uses_server(snippet, server):
            rc, err = server.run(snippet, out_dir, env)
            seed = server.hash_seed
        else:
            seed = hash_seed or random_hash_seed()
            argv = [sys.executable, "-m", "tools", "snippets", "worker", "exec", str(snippet.path), tmp]
            child = {**child_env(), "PYTHONHASHSEED": str(seed), **env}
            rc, _, err = run_command(argv, cwd=ROOT, env=child, timeout=snippet.timeout)
        outputs: list[str | None] = []
        for i in range(len(snippet.chunks)):
            p = out_dir / f"{i}.txt"
            outputs.append(p.read_text(encoding="utf-8", errors="replace") if p.exists() else None)
        notes = out_dir / guard.GUARD_FILE
        seen = json.loads(notes.read_text(encoding="utf-8")) if notes.exists() else {}
    notes_of = {k: seen.get(k, []) for k in ("inputs", "problems", "unmet")}
    err, by_section = split_stderr(err)
    return Outcome(rc, err, outputs, seed, **notes_of, stderr_by_section=by_section)


def uses_server(snippet: Snippet, server: ForkServer | None) -> bool:
    return snippet.runner == "fork" and server is not None


def run(
    snippet: Snippet,
    server: ForkServer | None = None,
    env: dict[str, str] | None = None,
    hash_seed: int | None = None,
    reader_checks: bool = True,
) -> Outcome:
    """Run ``snippet`` and check the run as a reader would see it; raise SnippetError
    if it failed, printed to stderr, wrote or read what a reader cannot, stopped
    early, or printed more than a page can hold (``reader_checks=False``: only if it
    failed; the version runs, where other releases may warn, use that).

    ``env`` adds environment variables for this run (e.g. ``SNIPPET_SMOKE=1``).
    Without a server the run gets ``hash_seed`` (default: a random one).
    """
    outcome = execute(snippet, server, env, hash_seed)
    again = f"Reproduce with: PYTHONHASHSEED={outcome.hash_seed} .venv/bin/python {snippet.rel}"
    if outcome.rc != 0:
        lines = without_runner_frames(outcome.stderr)
        tail = "\n".join(lines[-ERROR_TAIL_LINES:])
        how = "timed out" if outcome.timed_out else f"failed (exit {outcome.rc})"
        raise SnippetError(f"{snippet.rel} {how}:\n{tail}\n{again}")
    problem = reader_problem(snippet, outcome) if reader_checks else None
    if problem:
        raise SnippetError(f"{problem}\n{again}")
    return outcome


def _where(snippet: Snippet, note: dict) -> str:
    line = f":{note['line']}" if note.get("line") else ""
    return f"{snippet.rel}{line} (section {note['section']!r})"


def reader_problem(snippet: Snippet, outcome: Outcome) -> str | None:
    """What a reader running this snippet would meet that the page does not show."""
    if outcome.unmet:
        return outcome.unmet[0] + " Fix the code or the header."
    for note in outcome.problems:
        if note["what"] == "writes":
            return (
                f"{_where(snippet, note)} writes {note['path']}: a reader running it would find "
                "that file in their folder (or in the repository). Write into a folder the "
                "snippet makes itself (with tempfile.TemporaryDirectory() as tmp: ...), and "
                "delete the file it left."
            )
        if note["what"] == "network":
            return (
                f"{_where(snippet, note)} connects to {note['path']}: a reader offline (or "
                "behind a firewall) could not run it, and the record would depend on a "
                "server. Make the data in the snippet (torch.manual_seed, torch.randn), or "
                "commit a small file beside it under snippets/ and read that."
            )
        return (
            f"{_where(snippet, note)} reads {note['path']}, which exists only on this machine "
            "(not in the repository, not installed, not made by the run): a reader's run "
            "would fail. Create the file in the snippet, or put it in the repository."
        )
    missing = [
        c.name or "(outside sections)" for c, out in zip(snippet.chunks, outcome.outputs) if out is None
    ]
    if missing:
        return (
            f"{snippet.rel} stopped before section {missing[0]!r} although it exited with "
            "status 0 (os._exit?): the sections after it never ran. Let the snippet run to its end."
        )
    err = outcome.stderr.strip()
    if err and not snippet.stderr_reason:
        first = "\n".join(err.splitlines()[:ERROR_TAIL_LINES])
        return (
            f"{snippet.rel} printed to stderr, which the record does not keep but every reader "
            f"sees:\n{first}\nFix the cause; or declare the section '# warns: NAME Type' (its "
            "warnings are then recorded into its output); or, for output the run cannot "
            "catch (worker processes, C++ logs), say why in a '# stderr: WHY' header."
        )
    for chunk, out in zip(snippet.chunks, outcome.outputs):
        lines = (out or "").count("\n")
        if lines > MAX_OUTPUT_LINES:
            name = chunk.name or "(outside sections)"
            return (
                f"{snippet.rel}: section {name!r} printed {lines:,} lines (at most "
                f"{MAX_OUTPUT_LINES} fit on a page). Print a summary (shape, a few values, "
                "a count) instead."
            )
    return None
