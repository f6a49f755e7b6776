"""CONTRIBUTING.md's map of tools/, made from the package and module docstrings.

The map sits between two markers in CONTRIBUTING.md; ``python -m tools dev map``
rewrites it, and a test fails when it differs from the code (a new, moved or
renamed module).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tools.core.repo import ROOT

CONTRIBUTING = ROOT / "CONTRIBUTING.md"
START, END = "<!-- tools-map:start (python -m tools dev map) -->", "<!-- tools-map:end -->"


def _summary(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = doc.split("\n\n")[0]
    return " ".join(first.split()).replace("|", "\\|")


def tools_map(root: Path = ROOT) -> str:
    """A table: each package (its docstring), then each of its modules (theirs)."""
    rows = ["| where | what it does |", "|---|---|"]
    for init in sorted((root / "tools").rglob("__init__.py")):
        package = init.parent
        rows.append(f"| **`{package.relative_to(root).as_posix()}/`** | {_summary(init)} |")
        for module in sorted(package.glob("*.py")):
            if module.name != "__init__.py":
                rows.append(f"| `{module.relative_to(root).as_posix()}` | {_summary(module)} |")
    return "\n".join(rows)


def with_map(text: str, table: str) -> str:
    """``text`` (CONTRIBUTING.md) with the map between the markers replaced."""
    head, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"CONTRIBUTING.md has no {START} ... {END} block")
    return f"{head}{START}\n{table}\n{END}{tail}"


def write_map() -> Path:
    CONTRIBUTING.write_text(with_map(CONTRIBUTING.read_text(encoding="utf-8"), tools_map()), encoding="utf-8")
    return CONTRIBUTING
