"""``python -m tools glossary``: the search words made from the glossary.

The glossary as data, and the words made from it: ``tools.chapters.glossary.load``.
"""

from __future__ import annotations

import click


@click.group()
def glossary() -> None:
    """The glossary pages (docs/<lang>/glossary.md) as data."""


@glossary.command()
def words() -> None:
    """Rewrite data/search-words.zh.txt from the Chinese glossary's terms."""
    from tools.chapters.glossary.load import ROOT, WORDS, terms, words_file_text

    WORDS.write_text(words_file_text(terms("zh")), encoding="utf-8")
    print(f"wrote {WORDS.relative_to(ROOT)}")
