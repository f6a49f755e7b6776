"""``python -m tools errors``: the error chapter, from ``data/errors.yml`` and the
candidate messages of PyTorch's source (``data/errors-candidates.yml``).

``candidates`` re-reads the source (``tools.chapters.errors.extract``); ``write``
renders the pages and the search queries (``tools.chapters.errors.render``);
``check`` fails when they are stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.group()
def errors() -> None:
    """The error chapter under docs/<lang>/errors/."""


@errors.command()
@click.option(
    "--source",
    type=click.Path(path_type=Path),
    default=None,
    help="A pytorch checkout whose Python files replace the wheel's "
    "(the C++ messages are read from the wheel's binaries).",
)
def candidates(source: Path | None) -> None:
    """Regenerate data/errors-candidates.yml from PyTorch's source."""
    from tools.chapters.errors.extract import collect, render_candidates, torch_commit
    from tools.chapters.errors.load import CANDIDATES, locations, sources
    from tools.core.repo import rel

    files, found = collect(sources(), source, locations())
    CANDIDATES.write_text(render_candidates(sources(), files, found), encoding="utf-8")
    print(
        f"wrote {rel(CANDIDATES)}: {len(found)} messages from {len(files)} files "
        f"(torch {torch_commit()[:12]})"
    )


@errors.command()
def write() -> None:
    """Regenerate docs/zh/errors/, docs/en/errors/ and data/search-queries-errors.yml."""
    from tools.chapters.errors.render import write as write_pages
    from tools.core.repo import rel

    for path in write_pages():
        print(f"wrote {rel(path)}")


@errors.command()
def check() -> None:
    """Fail if the committed pages or queries differ from the data."""
    from tools.chapters.errors.render import WRITE_HINT, stale

    bad = stale()
    if bad:
        print("error pages out of date: " + ", ".join(bad) + f"\nrun: {WRITE_HINT}", file=sys.stderr)
        sys.exit(1)
