"""``python -m tools faq``: the FAQ chapter, generated from ``data/questions.yml``.

The data and its validation: ``tools.chapters.faq.load``; the pages:
``tools.chapters.faq.render``; every build writes them first when the data changed
(``tools/build/generate.py``).
"""

from __future__ import annotations

import sys

import click


@click.group()
def faq() -> None:
    """The FAQ pages under docs/<lang>/faq/."""


@faq.command()
def write() -> None:
    """Regenerate docs/zh/faq/ and docs/en/faq/ from the data."""
    from tools.chapters.faq.render import write as write_pages
    from tools.core.repo import rel

    for path in write_pages():
        print(f"wrote {rel(path)}")


@faq.command()
def check() -> None:
    """Fail if the committed pages differ from the data."""
    from tools.chapters.faq.render import WRITE_HINT, stale

    bad = stale()
    if bad:
        print("FAQ pages out of date: " + ", ".join(bad) + f"\nrun: {WRITE_HINT}", file=sys.stderr)
        sys.exit(1)
