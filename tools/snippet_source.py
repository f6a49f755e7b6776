"""Read a snippet file: its header comments and its chunks.

A snippet is a standalone script under ``snippets/`` (``python snippets/x/y.py`` works).
Its named sections (see ``tools.sections``) are embedded into pages; the code between
sections runs too but is not shown.

Header comments (first lines of the file) declare needs:
    # requires: cuda      -> gpu-marked; skipped without CUDA
    # runner: subprocess  -> run in a fresh interpreter (e.g. multiprocessing with spawn)
    # timeout: 300        -> seconds (default 120)
    # cpu-smoke: yes      -> a CUDA snippet that the normal suite also runs on CPU with
                             SNIPPET_SMOKE=1 set (tiny sizes, record not compared)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tools import sections
from tools.repo import SNIPPETS, rel
from tools.sections import Chunk

RECORD_SUFFIX = ".out"
DEFAULT_TIMEOUT = 120
RUNNERS = ("fork", "subprocess")

_HEADER = re.compile(r"^#\s*(?P<key>requires|runner|timeout|cpu-smoke)\s*:\s*(?P<value>\S+)\s*$")


class SnippetError(RuntimeError):
    """A snippet is malformed, failed, or its record is stale; the message says what to do."""


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


def all_snippets() -> list[Path]:
    return sorted(p for p in SNIPPETS.rglob("*.py") if p.name != "__init__.py")


def expand_paths(paths: list[Path]) -> list[Path]:
    """Folders stand for the snippets under them."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.py") if q.name != "__init__.py"))
        else:
            out.append(p)
    return out


def _read_header(snippet: Snippet, lines: list[str]) -> None:
    for line in lines:
        if not line.startswith("#"):
            break
        m = _HEADER.match(line.strip())
        if not m:
            continue
        key, value = m["key"], m["value"]
        if key == "requires":
            snippet.requires.update(v for v in value.split(",") if v)
        elif key == "runner":
            if value not in RUNNERS:
                raise SnippetError(
                    f"{snippet.rel}: unknown runner {value!r} (use fork or subprocess)."
                )
            snippet.runner = value
        elif key == "cpu-smoke":
            snippet.cpu_smoke = value.lower() in ("yes", "true", "1")
        else:
            snippet.timeout = int(value)


def parse(path: Path) -> Snippet:
    """Split a snippet into chunks at its section markers and read its header."""
    path = Path(path)
    if not path.is_file():
        raise SnippetError(
            f"No snippet file at {path}. Check the path (snippets live under snippets/)."
        )
    text = path.read_text(encoding="utf-8")
    snippet = Snippet(path=path.resolve(), chunks=[])
    _read_header(snippet, text.splitlines(keepends=True))
    try:
        snippet.chunks = sections.split(text, rel(path))
    except sections.SectionError as err:
        raise SnippetError(str(err)) from None
    return snippet
