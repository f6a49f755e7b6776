"""``python -m tools figures``: build every figure, or render one to look at.

How figures are built and cached: ``tools.figures.build``; how one is drawn:
``tools.figures.render``.
"""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def figures() -> None:
    """Figures drawn by the scripts under figures/."""


@figures.command()
def build() -> None:
    """Render every stale figure (into .cache/figures/)."""
    from tools.figures.build import build_all

    for uri in sorted(build_all()):
        print(uri)


@figures.command()
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("outdir", type=click.Path(file_okay=False, path_type=Path), default="figure-preview")
@click.option("--deps", is_flag=True, hidden=True, help="also write deps.json (the build's cache)")
def render(script: Path, outdir: Path, deps: bool) -> None:
    """Render SCRIPT in both languages into OUTDIR (default: ./figure-preview)."""
    from tools.core.errors import ToolError
    from tools.core.files import os_error_message
    from tools.figures.render import render as draw

    try:
        written = draw(script.resolve(), outdir, deps=deps)
    except OSError as err:
        raise ToolError(os_error_message(err, err.filename or outdir)) from None
    for path in written:
        print(path)
