"""MkDocs handlers for what readers see around the content.

Event handlers only: the HTML comes from tools/site/reader_html.py (numbered, zoomable
figures; wrappable long names; no hreflang ``<link>`` tags; the English search
index for English pages), the search index and worker from tools/site/search.py
(one index per language, whole-word Chinese queries). On a two-language build
both languages write /404.html; the default language's is kept.

Wired in by tools/site/hooks.py.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from tools.core.repo import page_lang
from tools.site.reader_html import (
    break_headings_at_words,
    break_long_names,
    drop_alternate_links,
    figures_min_width,
    figures_to_html,
    label_table_cells,
    mark_aligned_outputs,
    use_english_search_index,
)
from tools.site.search import SEARCH_WORDS, patch_search_worker, split_search_index


def require_search_words(config):
    if not SEARCH_WORDS.is_file():
        from tools.core.errors import ToolError

        raise ToolError(f"{SEARCH_WORDS} is missing: run python -m tools glossary words")
    return config


def _is_en(page) -> bool:
    return page.url == "en/" or page.url.startswith("en/")


def _svg_reader(page, files):
    """Read a figure the page links (a URL relative to the page) from the build's files."""

    def read(src: str) -> str | None:
        uri = posixpath.normpath(posixpath.join(posixpath.dirname(page.url.rstrip("/") + "/x"), src))
        for candidate in (uri, uri.removeprefix("en/")):
            file = files.get_file_from_path(candidate)
            if file is not None and file.abs_src_path and Path(file.abs_src_path).is_file():
                return Path(file.abs_src_path).read_text(encoding="utf-8")
        return None

    return read


def shape_content_html(html_text: str, page, config, files) -> str:
    lang = page_lang(page.file.src_uri)[0]
    html_text = break_long_names(html_text)
    try:
        html_text = figures_to_html(html_text, lang)
    except ValueError as err:
        from tools.core.errors import ToolError

        raise ToolError(f"{page.file.src_uri}: {err}") from None
    html_text = figures_min_width(html_text, _svg_reader(page, files))
    html_text = label_table_cells(html_text, lang)
    html_text = mark_aligned_outputs(html_text)
    return break_headings_at_words(html_text, lang)


def finish_page_html(output: str, page, config) -> str:
    output = drop_alternate_links(output)
    if _is_en(page):
        output = use_english_search_index(output)
    return output


_404: dict[str, str] = {}


def keep_default_404(output: str, template_name: str, config) -> str:
    # Both language builds write the one /404.html; keep the default language's.
    if template_name == "404.html" and config.theme.get("language") == "zh":
        _404["zh"] = output
    return output


def split_search_by_language(config) -> None:
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return  # the inner (English) build: the index is not complete yet
    if "zh" in _404:
        (Path(config.site_dir) / "404.html").write_text(_404.pop("zh"), encoding="utf-8")
    site_dir = Path(config.site_dir)
    if (site_dir / "search" / "search_index.json").is_file():
        split_search_index(site_dir)
        patch_search_worker(site_dir)
