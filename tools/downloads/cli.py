"""``python -m tools downloads``: the per-page reader scripts and notebooks
(``tools.downloads.files``)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

LANG = click.argument("lang", type=click.Choice(["zh", "en"]))
PAGE = click.argument("page", type=click.Path(path_type=Path))


@click.group()
def downloads() -> None:
    """What a page's download bar links: its script (.py) and notebook (.ipynb)."""


@downloads.command()
@LANG
@PAGE
def script(lang: str, page: Path) -> None:
    """Print the reader script of PAGE (a path under docs/LANG/)."""
    from tools.downloads.files import script as make_script
    from tools.downloads.model import page_code

    sys.stdout.write(make_script(page_code(lang, page)))


@downloads.command()
@LANG
@PAGE
def notebook(lang: str, page: Path) -> None:
    """Print the notebook (JSON) of PAGE (a path under docs/LANG/)."""
    from tools.downloads.files import notebook as make_notebook
    from tools.downloads.model import page_code

    sys.stdout.write(make_notebook(page_code(lang, page)))


@downloads.command()
@click.argument("outdir", type=click.Path(file_okay=False, path_type=Path))
def write(outdir: Path) -> None:
    """Write every download under OUTDIR/<lang>/."""
    from tools.core.repo import LANGS
    from tools.downloads.files import all_downloads

    for lang in LANGS:
        for uri, text in all_downloads(lang, cuda=False).items():
            path = outdir / lang / uri.removeprefix(f"{lang}/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(path)
