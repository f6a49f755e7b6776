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


def page_under_docs(lang: str, page: Path) -> Path:
    """``page`` as a path under docs/<lang>/ (a ToolError naming it and the fix when it
    is not a page there: outside docs/<lang>/, missing, or without .md)."""
    from tools.core.errors import ToolError
    from tools.core.repo import DOCS

    base = (DOCS / lang).resolve()
    target = (base / page).resolve()
    example = "pitfalls/hook-aliases.md"
    if not target.is_relative_to(base):
        raise ToolError(f"{page} is not a page under docs/{lang}/: give its path there, e.g. {example}.")
    name = target.relative_to(base).as_posix()
    if not target.is_file():
        hint = f" (did you mean {name}.md?)" if (base / f"{name}.md").is_file() else ""
        raise ToolError(
            f"docs/{lang}/{name} does not exist{hint}: give a page under docs/{lang}/, e.g. {example}."
        )
    if target.suffix != ".md":
        raise ToolError(f"docs/{lang}/{name} is not a page (.md): give one, e.g. {example}.")
    return Path(name)


@downloads.command()
@LANG
@PAGE
def script(lang: str, page: Path) -> None:
    """Print the reader script of PAGE (a path under docs/LANG/)."""
    from tools.downloads.files import script as make_script
    from tools.pages.code import page_code

    sys.stdout.write(make_script(page_code(lang, page_under_docs(lang, page))))


@downloads.command()
@LANG
@PAGE
def notebook(lang: str, page: Path) -> None:
    """Print the notebook (JSON) of PAGE (a path under docs/LANG/)."""
    from tools.downloads.files import notebook as make_notebook
    from tools.pages.code import page_code

    sys.stdout.write(make_notebook(page_code(lang, page_under_docs(lang, page))))


@downloads.command()
@click.argument("outdir", type=click.Path(file_okay=False, path_type=Path))
def write(outdir: Path) -> None:
    """Write every download under OUTDIR/<lang>/."""
    from tools.core import files
    from tools.core.repo import LANGS
    from tools.downloads.files import all_downloads

    for lang in LANGS:
        for uri, text in all_downloads(lang, cuda=False).items():
            path = outdir / lang / uri.removeprefix(f"{lang}/")
            files.write_text(path, text)  # an unwritable OUTDIR: one line naming it
            print(path)
