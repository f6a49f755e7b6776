"""The section-marker syntax shared by snippets, their records and the pages.

A section is the lines between ``# --8<-- [start:name]`` and ``# --8<-- [end:name]``
(pymdownx.snippets' syntax), at column 0. Pages embed ``file.py:name``; a record
``file.out`` carries the same markers around what the section printed.

Data that points at a section as evidence (``snippets/x/y.py:name``, in
``data/fact-check.yml`` and ``data/upstream-tests.yml``) reads it with
``split_evidence`` and finds the asserts in it with ``assert_sources``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import read_text, rel

MARKER = re.compile(
    r"^(?P<indent>[ \t]*)#\s*-{1,}8<-{1,}\s+\[\s*(?P<type>start|end)\s*:"
    r"\s*(?P<name>[a-z][-_0-9a-z]*)\s*\]\s*$"
)


class SectionError(ToolError, ValueError):
    """Malformed section markers; the message names the file and line."""


@dataclass
class Chunk:
    name: str | None  # section name, or None for code between sections
    first_line: int  # 1-based line number of the chunk's first line
    code: str

    @property
    def last_line(self) -> int:
        """1-based line number of the chunk's last line of code (the one line range of
        a section, for links, asserts and failures alike)."""
        return self.first_line + max(len(self.code.splitlines()) - 1, 0)


def start_marker(name: str) -> str:
    return f"# --8<-- [start:{name}]\n"


def end_marker(name: str) -> str:
    return f"# --8<-- [end:{name}]\n"


def wrap(name: str, text: str) -> str:
    """``text`` between the markers of section ``name``."""
    if text and not text.endswith("\n"):
        text += "\n"
    return f"{start_marker(name)}{text}{end_marker(name)}"


def _markers(lines: list[str]) -> Iterator[tuple[int, re.Match]]:
    for no, line in enumerate(lines, 1):
        m = MARKER.match(line.rstrip("\n"))
        if m:
            yield no, m


def split(text: str, where: str) -> list[Chunk]:
    """Cut ``text`` into chunks at its section markers; ``where`` names it in errors.

    Blank code between sections is dropped; every named section is kept, even empty.
    """
    lines = text.splitlines(keepends=True)
    chunks: list[Chunk] = []
    current: str | None = None
    start = 1
    seen: set[str] = set()

    def flush(end: int, next_start: int) -> None:
        nonlocal start
        body = lines[start - 1 : end - 1]
        if any(s.strip() for s in body) or current is not None:
            chunks.append(Chunk(current, start, "".join(body)))
        start = next_start

    for no, m in _markers(lines):
        here = f"{where}:{no}"
        if m["indent"]:
            raise SectionError(f"{here}: section markers must start at column 0 (top level).")
        if m["type"] == "start":
            if current is not None:
                raise SectionError(
                    f"{here}: section {m['name']!r} starts inside {current!r}; sections cannot nest."
                )
            if m["name"] in seen:
                raise SectionError(f"{here}: section {m['name']!r} is defined twice.")
            flush(no, no + 1)
            current = m["name"]
            seen.add(current)
        else:
            if current != m["name"]:
                raise SectionError(f"{here}: end of section {m['name']!r} without its start.")
            flush(no, no + 1)
            current = None
    if current is not None:
        raise SectionError(f"{where}: section {current!r} is never closed.")
    flush(len(lines) + 1, len(lines) + 1)
    return chunks


def names(text: str) -> list[str]:
    """Names of the sections that start in ``text``, in order."""
    lines = text.splitlines()
    return [m["name"] for _, m in _markers(lines) if m["type"] == "start"]


def body(text: str, name: str, where: str) -> str | None:
    """The code of section ``name`` (None if there is no such section)."""
    for chunk in split(text, where):
        if chunk.name == name:
            return chunk.code
    return None


def named(text: str, where: str) -> dict[str, str]:
    """``{name: code}`` of every named section of ``text`` (a snippet or a record)."""
    return {c.name: c.code for c in split(text, where) if c.name}


def split_evidence(evidence: str) -> tuple[str, str | None]:
    """``'snippets/x/y.py:sec'`` -> ``('snippets/x/y.py', 'sec')``."""
    path, _, section = evidence.partition(":")
    return path, section or None


def _is_check(node: ast.AST, raises: bool) -> bool:
    if isinstance(node, ast.Assert):
        return True
    if not raises or not isinstance(node, ast.Raise) or node.exc is None:
        return False
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    return isinstance(exc, ast.Name) and exc.id == "AssertionError"


def _is_main_guard(node: ast.AST) -> bool:
    """``if __name__ == "__main__":`` always runs when the snippet does."""
    test = getattr(node, "test", None)
    return (
        isinstance(node, ast.If)
        and isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
    )


def branches(tree: ast.AST) -> dict[int, int]:
    """Line of each statement inside an if/while/except/match -> the line of the
    innermost such branch (code there may never run, e.g. only with CUDA)."""
    out: dict[int, int] = {}

    def walk(node: ast.AST, branch: int | None) -> None:
        if isinstance(node, ast.stmt) and branch is not None:
            out.setdefault(node.lineno, branch)
        conditional = isinstance(node, (ast.If, ast.While, ast.ExceptHandler, ast.match_case))
        if conditional and not _is_main_guard(node):
            branch = node.pattern.lineno if isinstance(node, ast.match_case) else node.lineno
        for child in ast.iter_child_nodes(node):
            walk(child, branch)

    walk(tree, None)
    return out


_RAISES_HEADER = re.compile(r"^#\s*raises\s*:\s*(?P<section>\S+)\s+(?P<type>\S+)\s*$", re.M)


def _declared_raises(text: str, tree: ast.Module) -> dict[str, str]:
    """Section -> its ``# raises: NAME Type`` header line (``tools.snippets.source``).

    The runner fails a run in which the section does not end by raising ``Type``, so
    the header is a check of its own: the claim "this raises".
    """
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the module docstring: a header may sit below it
    first = body[0].lineno if body else len(text.splitlines()) + 1
    head = "\n".join(text.splitlines()[: first - 1])
    return {m["section"]: m[0].strip() for m in _RAISES_HEADER.finditer(head)}


@cache
def _checks(
    path: Path, stamp: tuple[int, int], raises: bool
) -> tuple[list[tuple[int, str, int | None]], dict, dict[str, str]]:
    """(line, source lines, branch line or None) of each check in ``path``, each
    section's line range, and each section's ``# raises:`` header.

    Cached by (mtime, size): a build checks ~100 entries against a few dozen files.
    """
    text = read_text(path)
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text, filename=str(path))
    inside = branches(tree)
    found = [
        (node.lineno, "".join(lines[node.lineno - 1 : node.end_lineno]), inside.get(node.lineno))
        for node in ast.walk(tree)
        if _is_check(node, raises)
    ]
    chunks = split(text, rel(path))
    ranges = {c.name: range(c.first_line, c.last_line + 1) for c in chunks if c.name is not None}
    return sorted(found, key=lambda f: f[0]), ranges, _declared_raises(text, tree)


def assert_sources(
    file: Path, section: str | None = None, raises: bool = False, with_branch: bool = False
) -> list:
    """Source of each ``assert`` statement in ``file`` (or in its ``section``), in order;
    with ``with_branch``, (source, line of the if/while/except it sits in, or None).

    A section's ``# raises: NAME Type`` header comes first: the runner checks it on
    every run. With ``raises``, a ``raise AssertionError(...)`` counts too.
    """
    stat = file.stat()
    found, ranges, declared = _checks(Path(file), (stat.st_mtime_ns, stat.st_size), raises)
    lines = ranges[section] if section is not None else None
    kept = [(code, None) for name, code in declared.items() if section in (None, name)]
    kept += [(code, branch) for line, code, branch in found if lines is None or line in lines]
    return kept if with_branch else [code for code, _ in kept]


_ANNOTATION = re.compile(r"#\s*\((\d+)\)!")


def annotation_mismatch(code: str, notes: dict[str, list[str]], where: str) -> str | None:
    """What is wrong between the ``# (n)!`` markers of ``code`` (a snippet section)
    and the notes written for it in each language, or None: the markers must be
    (1)!, (2)!, ... in order, with one note per marker in every language."""
    numbers = [int(m) for m in _ANNOTATION.findall(code)]
    if numbers != list(range(1, len(numbers) + 1)):
        return f"annotation markers in {where} must be (1)!, (2)!, ... in order; found {numbers}."
    for lang, given in notes.items():
        if len(given) != len(numbers):
            return (
                f"notes_{lang} has {len(given)} note(s), but {where} has "
                f"{len(numbers)} annotation marker(s) # (n)!."
            )
    return None
