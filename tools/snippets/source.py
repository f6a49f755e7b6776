"""Read a snippet file: its header comments and its chunks.

A snippet is a standalone script under ``snippets/`` (``python snippets/x/y.py`` works).
Its named sections (see ``tools.core.sections``) are embedded into pages; the code between
sections runs too but is not shown.

Header comments, at column 0 before the first statement (above or below the module
docstring), declare needs:
    # requires: cuda      -> gpu-marked; skipped without CUDA
    # runner: subprocess  -> run in a fresh interpreter (e.g. multiprocessing with spawn)
    # timeout: 300        -> seconds, a whole number (default 60)
    # cpu-smoke: yes      -> a CUDA snippet that the normal suite also runs on CPU with
                             SNIPPET_SMOKE=1 set (tiny sizes, record not compared)
    # raises: NAME Type   -> section NAME ends by raising Type (or a subclass); the
                             runner records "Type: message" as its output, so the page
                             shows the error without a try/except in the code
    # warns: NAME Type    -> section NAME warns with Type; each warning is recorded
                             as "Type: message" after the section's own output
    # stderr: WHY         -> the run prints to stderr for a reason a reader should
                             know (e.g. worker processes' own warnings); without it,
                             any stderr output of a passing run is an error
    # setup: NAME         -> the unshown code right before section NAME is set-up the
                             page leaves out (loading a result file, say); the page's
                             download runs it just before NAME, so it still works
A header after the first statement, an unknown value or a timeout such as ``2m`` is an
error naming the file and line.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from tools.core import sections
from tools.core.errors import ToolError
from tools.core.repo import SNIPPETS, read_text, rel
from tools.core.sections import Chunk

RECORD_SUFFIX = ".out"
DEFAULT_TIMEOUT = 60  # seconds; the slowest fork-run snippet takes ~10 s on a loaded 2-core machine
RUNNERS = ("fork", "subprocess")
REQUIREMENTS = ("cuda",)
_YES, _NO = ("yes", "true", "1"), ("no", "false", "0")

_HEADER = re.compile(
    r"^#\s*(?P<key>requires|runner|timeout|cpu-smoke|raises|warns|stderr|setup)\s*:\s*(?P<value>.*?)\s*$"
)
_EXPECT = re.compile(r"(?P<section>[\w-]+)\s+(?P<type>[A-Za-z_]\w*)")


class SnippetError(ToolError, RuntimeError):
    """A snippet is malformed, failed, or its record is stale; the message says what to do."""


@dataclass
class Snippet:
    path: Path
    chunks: list[Chunk]
    requires: set[str] = field(default_factory=set)
    runner: str = "fork"
    timeout: int = DEFAULT_TIMEOUT
    cpu_smoke: bool = False  # a CUDA snippet that can also run tiny on CPU (SNIPPET_SMOKE=1)
    expects: dict[str, tuple[str, str]] = field(default_factory=dict)  # section: (raises|warns, Type)
    stderr_reason: str = ""  # why a passing run may print to stderr (``# stderr:``)
    setups: set[str] = field(default_factory=set)  # sections whose unshown set-up downloads run

    def setup_code(self, section: str | None) -> str:
        """The unshown code right before ``section`` when it is declared ``# setup:``."""
        if section not in self.setups:
            return ""
        at = next(i for i, c in enumerate(self.chunks) if c.name == section)
        before = self.chunks[at - 1] if at else None
        if before is None or before.name is not None:
            return ""
        return "".join(s for s in before.code.splitlines(True) if not _HEADER.match(s))

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
    """Folders stand for the snippets under them; every path must be a snippet (or a
    folder of them) under ``snippets/``: a ToolError names the first that is not."""
    out: list[Path] = []
    for p in paths:
        where = _under_snippets(p)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*.py") if q.name != "__init__.py")
            if not found:
                raise ToolError(
                    f"{where}/ holds no snippet (.py file). Give a snippet or a folder under "
                    "snippets/ (e.g. snippets/pitfalls/hook-aliases/), or nothing for all of them."
                )
            out.extend(found)
            continue
        if p.suffix == RECORD_SUFFIX:
            raise ToolError(
                f"{where} is a record (the output of {where[: -len(RECORD_SUFFIX)]}.py); "
                f"record its .py: .venv/bin/python -m tools snippets record {where[: -len(RECORD_SUFFIX)]}.py"
            )
        if p.suffix != ".py":
            raise ToolError(f"{where} is not a snippet: snippets are .py files under snippets/.")
        out.append(p)
    return out


def _under_snippets(path: Path) -> str:
    """``path`` relative to the repository; a ToolError when it is not under snippets/."""
    real = Path(os.path.realpath(path))
    try:
        real.relative_to(os.path.realpath(SNIPPETS))
    except ValueError:
        raise ToolError(
            f"{rel(path)} is not under snippets/: only snippets are recorded (a snippet is "
            "snippets/<section>/<page>/<name>.py; a page's snippets are in its folder there)."
        ) from None
    return rel(path)


def _first_statement(text: str, where: str) -> int:
    """Line of the first statement after the module docstring (past the end if none)."""
    try:
        body = ast.parse(text, filename=where).body
    except SyntaxError as err:
        raise SnippetError(f"{where}:{err.lineno}: syntax error: {err.msg}.") from None
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the module docstring
    return body[0].lineno if body else text.count("\n") + 2


def _header_value(key: str, value: str, where: str) -> object:
    if key == "requires":
        needs = {v.strip() for v in value.split(",") if v.strip()}
        unknown = sorted(needs - set(REQUIREMENTS))
        if unknown or not needs:
            raise SnippetError(
                f"{where}: unknown requirement {', '.join(unknown) or repr(value)} in "
                f"'# requires: {value}' (known: {', '.join(REQUIREMENTS)})."
            )
        return needs
    if key == "runner":
        if value not in RUNNERS:
            raise SnippetError(f"{where}: unknown runner {value!r} (use fork or subprocess).")
        return value
    if key in ("raises", "warns"):
        m = _EXPECT.fullmatch(value)
        if not m:
            raise SnippetError(
                f"{where}: '# {key}: {value}' must name a section and a type, e.g. "
                f"'# {key}: backward-twice {'RuntimeError' if key == 'raises' else 'UserWarning'}'."
            )
        return m["section"], m["type"]
    if key == "setup":
        if not re.fullmatch(r"[\w-]+", value):
            raise SnippetError(f"{where}: '# setup: {value}' must name one section, e.g. '# setup: table'.")
        return value
    if key == "stderr":
        if not value:
            raise SnippetError(f"{where}: '# stderr:' needs the reason a reader sees stderr output.")
        return value
    if key == "cpu-smoke":
        if value.lower() not in _YES + _NO:
            raise SnippetError(f"{where}: '# cpu-smoke: {value}' must be yes or no.")
        return value.lower() in _YES
    if not value.isdigit() or int(value) == 0:
        raise SnippetError(
            f"{where}: '# timeout: {value}' must be a whole number of seconds, e.g. '# timeout: 300'."
        )
    return int(value)


def _read_header(snippet: Snippet, text: str) -> None:
    code_starts = _first_statement(text, snippet.rel)
    for no, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if not m:
            continue
        where = f"{snippet.rel}:{no}"
        if no >= code_starts:
            raise SnippetError(
                f"{where}: the header '{line.strip()}' comes after code and would be "
                "ignored; move it to the top of the file (above or below the docstring)."
            )
        value = _header_value(m["key"], m["value"], where)
        if m["key"] == "requires":
            snippet.requires.update(value)
        elif m["key"] == "runner":
            snippet.runner = value
        elif m["key"] == "cpu-smoke":
            snippet.cpu_smoke = value
        elif m["key"] in ("raises", "warns"):
            section, kind = value
            if section in snippet.expects:
                raise SnippetError(f"{where}: section {section!r} already has a '# raises:' or '# warns:'.")
            snippet.expects[section] = (m["key"], kind)
        elif m["key"] == "stderr":
            snippet.stderr_reason = value
        elif m["key"] == "setup":
            snippet.setups.add(value)
        else:
            snippet.timeout = value


def parse(path: Path) -> Snippet:
    """Split a snippet into chunks at its section markers and read its header."""
    path = Path(path)
    if not path.is_file():
        raise SnippetError(f"No snippet file at {path}. Check the path (snippets live under snippets/).")
    text = read_text(path)
    if not text.strip():
        raise SnippetError(
            f"{rel(path)} is empty: a snippet is a script with at least one section that a "
            "page embeds. Write it, or delete the file."
        )
    snippet = Snippet(path=path.resolve(), chunks=[])
    _read_header(snippet, text)
    try:
        snippet.chunks = sections.split(text, rel(path))
    except sections.SectionError as err:
        raise SnippetError(str(err)) from None
    names = {c.name for c in snippet.chunks if c.name}
    unknown = sorted((set(snippet.expects) | snippet.setups) - names)
    if unknown:
        raise SnippetError(
            f"{snippet.rel}: '# raises:'/'# warns:'/'# setup:' name(s) {unknown}, which are not sections "
            f"of the file (its sections: {', '.join(sorted(names))})."
        )
    return snippet
