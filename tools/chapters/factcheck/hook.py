"""MkDocs hook: put the fact-check table where ``docs/<lang>/fact-check.md`` has the
marker ``<!-- fact-check-table -->``.

The data is validated first (``tools.chapters.factcheck.load``); a bad entry fails the build
with a ``ToolError`` naming the entry. The table comes from ``tools.chapters.factcheck.render``.
"""

from __future__ import annotations

from tools.chapters.factcheck import load as fact_check_data
from tools.chapters.factcheck import render as fact_check_table
from tools.core.errors import ToolError
from tools.core.repo import LANGS

MARKER = "<!-- fact-check-table -->"


def _lang_of(src_uri: str, config) -> str:
    first = src_uri.split("/", 1)[0]
    if first in LANGS:
        return first
    lang = str(config.theme.get("language") or "zh")
    return lang if lang in LANGS else "zh"


def load_claims(config) -> None:
    fact_check_table.page_index.cache_clear()  # mkdocs serve rebuilds in the same process


def insert_fact_check_table(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    src = page.file.src_uri
    if markdown.count(MARKER) != 1:
        raise ToolError(f"{src}: the marker {MARKER} must appear exactly once.")
    try:
        claims = fact_check_data.load_claims(fact_check_data.DATA)
    except fact_check_data.FactCheckError as err:
        raise ToolError(str(err)) from None
    lang = _lang_of(src, config)
    from_page = src.split("/", 1)[1] if src.split("/", 1)[0] in LANGS else src
    return markdown.replace(MARKER, fact_check_table.render(claims, lang, from_page))
