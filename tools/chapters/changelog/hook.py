"""MkDocs handler: put the changelog where ``docs/<lang>/reference/changelog.md`` has
the marker ``<!-- torch-changelog -->``.

The Markdown comes from ``tools.chapters.changelog.render`` and the results the
version notes read (``tools.versions.results.load_matrix``).
"""

from __future__ import annotations

from tools.chapters.changelog import render as changelog
from tools.core.errors import ToolError
from tools.core.repo import page_lang

MARKER = "<!-- torch-changelog -->"


def insert_changelog(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    src = page.file.src_uri
    if markdown.count(MARKER) != 1:
        raise ToolError(f"{src}: the marker {MARKER} must appear exactly once.")
    from tools.versions.results import load_matrix

    lang, from_page = page_lang(src, config)
    try:
        text = changelog.render(load_matrix(), lang, from_page)
    except ValueError as err:
        raise ToolError(f"{src}: {err}") from None
    return markdown.replace(MARKER, text)
