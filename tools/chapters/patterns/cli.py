"""``python -m tools patterns``: the training-pattern chapter, generated from ``data/patterns.yml``.

The data and its validation: ``tools.chapters.patterns.load``; the pages:
``tools.chapters.patterns.render``. The pages are committed; a test fails when they
differ from the data.
"""

from __future__ import annotations

import sys

import click


@click.group()
def patterns() -> None:
    """The pattern pages under docs/<lang>/patterns/."""


@patterns.command()
def write() -> None:
    """Regenerate docs/zh/patterns/ and docs/en/patterns/ from the data."""
    from tools.chapters.patterns.render import write as write_pages
    from tools.core.repo import rel

    for path in write_pages():
        print(f"wrote {rel(path)}")


@patterns.command()
def check() -> None:
    """Fail if the committed pages differ from the data."""
    from tools.chapters.patterns.render import WRITE_HINT, stale

    bad = stale()
    if bad:
        print("pattern pages out of date: " + ", ".join(bad) + f"\nrun: {WRITE_HINT}", file=sys.stderr)
        sys.exit(1)
