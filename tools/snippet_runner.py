"""Run a snippet in a child process and collect what each chunk printed.

Two ways to run (a snippet's ``# runner:`` header picks one):
    fork        a child forked from a warm ``ForkServer`` (torch already imported)
    subprocess  a fresh interpreter, for code that needs one (multiprocessing spawn)
Without a server, every snippet runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.repo import ROOT, child_env
from tools.snippet_source import Snippet, SnippetError

ERROR_TAIL_LINES = 30  # lines of a failing snippet's stderr quoted in the error


class ForkServer:
    """A warm interpreter (``tools.snippet_worker serve``) that forks one child per run."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools.snippet_worker", "serve"],
            cwd=ROOT,
            env=child_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        ready = self.proc.stdout.readline()
        if ready.strip() != "ready":
            raise RuntimeError(f"snippet fork server failed to start: {ready!r}")

    def run(
        self, snippet: Snippet, out_dir: Path, env: dict[str, str] | None = None
    ) -> tuple[int, str]:
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
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _run_in_subprocess(snippet: Snippet, out_dir: Path, env: dict[str, str]) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "tools.snippet_worker", "exec", str(snippet.path), str(out_dir)],
        cwd=ROOT,
        env={**child_env(), **env},
        capture_output=True,
        text=True,
        timeout=snippet.timeout,
    )
    return proc.returncode, proc.stderr


def run(
    snippet: Snippet, server: ForkServer | None = None, env: dict[str, str] | None = None
) -> list[str]:
    """What each chunk printed, in order. Raises SnippetError on failure.

    ``env`` adds environment variables for this run (e.g. ``SNIPPET_SMOKE=1``).
    """
    env = dict(env or {})
    with tempfile.TemporaryDirectory(prefix="snippet-out-") as tmp:
        out_dir = Path(tmp)
        if snippet.runner == "fork" and server is not None:
            rc, err = server.run(snippet, out_dir, env)
        else:
            rc, err = _run_in_subprocess(snippet, out_dir, env)
        if rc != 0:
            tail = "\n".join(err.strip().splitlines()[-ERROR_TAIL_LINES:])
            raise SnippetError(
                f"{snippet.rel} failed (exit {rc}):\n{tail}\n"
                f"Reproduce with: .venv/bin/python {snippet.rel}"
            )
        outputs = []
        for i in range(len(snippet.chunks)):
            p = out_dir / f"{i}.txt"
            outputs.append(p.read_text(encoding="utf-8") if p.exists() else "")
        return outputs
