"""MkDocs handlers: put the fact-check table where ``docs/<lang>/fact-check.md`` has the
marker ``<!-- fact-check-table -->``.

The data is validated first (``tools.chapters.factcheck.load``); a bad entry fails the build
with a ``ToolError`` naming the entry. The table comes from ``tools.chapters.factcheck.render``.
"""

from __future__ import annotations

from tools.chapters.factcheck import load as fact_check_data
from tools.chapters.factcheck import render as fact_check_table
from tools.core.errors import ToolError
from tools.core.repo import page_lang

MARKER = "<!-- fact-check-table -->"
SUMMARY = "<!-- fact-check-summary -->"  # the verdict count, in the page's opening


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
    lang, from_page = page_lang(src, config)
    markdown = markdown.replace(SUMMARY, fact_check_table.summary(claims, lang))
    return markdown.replace(MARKER, fact_check_table.render(claims, lang, from_page))
