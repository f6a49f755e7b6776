"""Records: what a snippet printed, section by section, stored beside it as ``.out``.

A record wraps each named chunk's output in the same section markers as the code, so a
page can show ``y.out:name`` right under ``y.py:name``. ``check`` compares a record with
a fresh run and fails with a diff and the command that refreshes it.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from tools import sections
from tools.repo import rel
from tools.snippet_runner import ForkServer, run
from tools.snippet_source import Snippet, SnippetError, parse

REFRESH_HINT = "make outputs  (or: .venv/bin/python -m tools.snippets record {path})"

_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{8,}\b")


def format_record(snippet: Snippet, outputs: list[str]) -> str:
    """Join chunk outputs; named chunks get section markers so pages can embed them."""
    parts = []
    for chunk, out in zip(snippet.chunks, outputs):
        parts.append(out if chunk.name is None else sections.wrap(chunk.name, out))
    return "".join(parts)


def fresh(
    path: Path, server: ForkServer | None = None, env: dict[str, str] | None = None
) -> str:
    """Run the snippet and return its record text. Raises SnippetError on failure."""
    snippet = parse(path)
    text = format_record(snippet, run(snippet, server, env))
    address = _ADDRESS.search(text)
    if address:
        raise SnippetError(
            f"{snippet.rel} printed a memory address ({address.group(0)}), which changes on "
            "every run. Print something stable instead, e.g. type(t.grad_fn).__name__ "
            "or a comparison of data_ptr() values."
        )
    return text


def check(path: Path, server: ForkServer | None = None) -> None:
    """Raise SnippetError with a diff when the record differs from a fresh run."""
    snippet = parse(path)
    new = fresh(path, server)
    record_path = snippet.record_path
    hint = REFRESH_HINT.format(path=snippet.rel)
    if not record_path.exists():
        raise SnippetError(
            f"{snippet.rel} has no recorded output ({rel(record_path)}). Create it with: {hint}"
        )
    old = record_path.read_text(encoding="utf-8")
    if old != new:
        diff = "".join(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"{rel(record_path)} (recorded)",
                tofile=f"{snippet.rel} (fresh run)",
            )
        )
        raise SnippetError(
            f"Recorded output of {snippet.rel} is stale:\n{diff}\n"
            f"If the fresh output is right, refresh the record with: {hint}"
        )


def record(path: Path, server: ForkServer | None = None) -> bool:
    """Write the record; return True if it changed."""
    snippet = parse(path)
    new = fresh(path, server)
    old = snippet.record_path.read_text(encoding="utf-8") if snippet.record_path.exists() else None
    if old != new:
        snippet.record_path.write_text(new, encoding="utf-8")
        return True
    return False
