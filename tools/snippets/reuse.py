"""Reuse a snippet's code outside its page: run named sections, keep their names.

A figure script that draws what a snippet computes calls the snippet's code instead
of a copy of it: ``run_sections("snippets/x/y.py", "setup")`` executes those sections
of the file, in the order given, in one fresh namespace and returns that namespace
(``{name: value}``). Tracebacks name the snippet file and its real line numbers. List
the snippet in the script's ``INPUTS`` so that an edit of it re-renders the figure.
"""

from __future__ import annotations

from pathlib import Path

from tools.core import sections
from tools.core.repo import ROOT, rel


def run_sections(snippet: Path | str, *names: str) -> dict[str, object]:
    """Run sections ``names`` of ``snippet`` (repo-relative or absolute) and return
    the names they define; ``ValueError`` names the file and its sections if one is
    missing."""
    path = ROOT / snippet
    where = rel(path)
    chunks = {c.name: c for c in sections.split(path.read_text(encoding="utf-8"), where) if c.name}
    missing = [n for n in names if n not in chunks]
    if not names or missing:
        raise ValueError(f"{where}: no section(s) {missing or list(names)}; it has {sorted(chunks)}.")
    namespace: dict[str, object] = {"__name__": "__snippet__", "__file__": str(path)}
    for name in names:
        chunk = chunks[name]
        # Blank lines in front: the compiled code keeps the file's line numbers.
        code = compile("\n" * (chunk.first_line - 1) + chunk.code, str(path), "exec")
        exec(code, namespace)
    return namespace
