"""``python -m tools apis``: the API inventory, generated from ``data/apis.yml``.

``candidates`` lists what the pinned torch offers (``tools.chapters.apis.candidates``)
and what covers each; ``write`` regenerates the pages (``tools.chapters.apis.render``);
``check`` fails when the data leaves a candidate uncovered or the pages are stale.
"""

from __future__ import annotations

import sys

import click


@click.group()
def apis() -> None:
    """The API inventory under docs/<lang>/apis/."""


@apis.command()
@click.option("--missing", is_flag=True, help="Only the candidates with neither an entry nor a reason.")
def candidates(missing: bool) -> None:
    """List the candidate APIs of the pinned torch and what covers each."""
    from tools.chapters.apis.candidates import candidates as introspect
    from tools.chapters.apis.load import load

    inv = load()
    covered, excused = inv.covering(), inv.excused()
    for c in introspect():
        status = (
            f"entry {covered[c.name].id}"
            if c.name in covered
            else "out of scope"
            if c.name in excused
            else "MISSING"
        )
        if missing and status != "MISSING":
            continue
        print(f"{c.namespace:11} {c.name}({', '.join(c.params)})  -> {status}")


@apis.command()
def write() -> None:
    """Regenerate docs/zh/apis/ and docs/en/apis/ from the data."""
    from tools.chapters.apis.render import write as write_pages
    from tools.core.repo import rel

    for path in write_pages():
        print(f"wrote {rel(path)}")


@apis.command()
def check() -> None:
    """Fail if a candidate is uncovered or the committed pages differ from the data."""
    from tools.chapters.apis.load import coverage, load
    from tools.chapters.apis.render import WRITE_HINT, stale

    inv = load()
    problems = coverage(inv)
    if problems:
        print("data/apis.yml does not cover the candidates:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)
    bad = stale(inv)
    if bad:
        print("API pages out of date: " + ", ".join(bad) + f"\nrun: {WRITE_HINT}", file=sys.stderr)
        sys.exit(1)
