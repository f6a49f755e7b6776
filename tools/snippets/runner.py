"""Run a snippet in a child process and collect what each chunk printed.

Two ways to run (a snippet's ``# runner:`` header picks one):
    fork        a child forked from a warm ``ForkServer`` (torch already imported)
    subprocess  a fresh interpreter, for code that needs one (multiprocessing spawn)
Without a server, every snippet runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.core.repo import ROOT, child_env
from tools.snippets.source import Snippet, SnippetError
from tools.snippets.worker import TIMEOUT_EXIT, stop, timeout_message

ERROR_TAIL_LINES = 30  # lines of a failing snippet's stderr quoted in the error
# frames of the runner itself in a timeout's stack dump: noise for the reader
_RUNNER_FRAME = re.compile(
    r'^  File "(?:[^"]*tools/(?:snippets/(?:worker|cli)|__main__)\.py|[^"]*/click/[^"]*|<frozen runpy>)", '
    r"line \d+,? in "
)


def _without_runner_frames(err: str) -> list[str]:
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

    def __init__(self, hash_seed: int | None = None) -> None:
        self.hash_seed = hash_seed or random_hash_seed()  # forked children share it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools", "snippets", "worker", "serve"],
            cwd=ROOT,
            env={**child_env(), "PYTHONHASHSEED": str(self.hash_seed)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._ready = False  # checked on first use, so that two servers start in parallel

    def _wait_ready(self) -> None:
        if not self._ready:
            ready = self.proc.stdout.readline()
            if ready.strip() != "ready":
                raise RuntimeError(f"snippet fork server failed to start: {ready!r}")
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
            raise RuntimeError("snippet fork server died")
        reply = json.loads(line)
        return reply["rc"], reply["stderr"]

    def close(self) -> None:
        self.stop()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def stop(self) -> None:
        """Ask the server to exit without waiting (``close`` waits)."""
        if self.proc.poll() is None and not self.proc.stdin.closed:
            self.proc.stdin.close()


def _run_in_subprocess(
    snippet: Snippet, out_dir: Path, env: dict[str, str], hash_seed: int
) -> tuple[int, str]:
    with subprocess.Popen(
        [sys.executable, "-m", "tools", "snippets", "worker", "exec", str(snippet.path), str(out_dir)],
        cwd=ROOT,
        env={**child_env(), "PYTHONHASHSEED": str(hash_seed), **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: a timeout kills its children too
    ) as proc:
        try:
            _, err = proc.communicate(timeout=snippet.timeout)
        except subprocess.TimeoutExpired:
            stop(proc.pid)
            _, err = proc.communicate()
            return TIMEOUT_EXIT, f"{err}\n{timeout_message(snippet.timeout)}\n"
        return proc.returncode, err


def uses_server(snippet: Snippet, server: ForkServer | None) -> bool:
    return snippet.runner == "fork" and server is not None


def run(
    snippet: Snippet,
    server: ForkServer | None = None,
    env: dict[str, str] | None = None,
    hash_seed: int | None = None,
) -> list[str]:
    """What each chunk printed, in order. Raises SnippetError on failure.

    ``env`` adds environment variables for this run (e.g. ``SNIPPET_SMOKE=1``).
    Without a server the run gets ``hash_seed`` (default: a random one).
    """
    env = dict(env or {})
    with tempfile.TemporaryDirectory(prefix="snippet-out-") as tmp:
        out_dir = Path(tmp)
        if uses_server(snippet, server):
            rc, err = server.run(snippet, out_dir, env)
            seed = server.hash_seed
        else:
            seed = hash_seed or random_hash_seed()
            rc, err = _run_in_subprocess(snippet, out_dir, env, seed)
        if rc != 0:
            lines = _without_runner_frames(err)
            tail = "\n".join(lines[-ERROR_TAIL_LINES:])
            how = "timed out" if rc == TIMEOUT_EXIT else f"failed (exit {rc})"
            raise SnippetError(
                f"{snippet.rel} {how}:\n{tail}\n"
                f"Reproduce with: PYTHONHASHSEED={seed} .venv/bin/python {snippet.rel}"
            )
        outputs = []
        for i in range(len(snippet.chunks)):
            p = out_dir / f"{i}.txt"
            outputs.append(p.read_text(encoding="utf-8") if p.exists() else "")
        return outputs
