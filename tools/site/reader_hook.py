"""MkDocs handlers for what readers see around the content.

Event handlers only: the English search index for English pages (the passes over
the built pages are tools/build/finish.py's). On a two-language build both languages
write /404.html; the default language's is kept. Once the whole site is written and
finished, Pagefind indexes it (tools/build/search.py, one index per language).

Wired in by tools/site/hooks.py.
"""

from __future__ import annotations

from pathlib import Path

from tools.build.search import index_site, nav_pages
from tools.site.reader_html import SEARCH_WORDS, use_english_search_index


def require_search_words(config):
    if not SEARCH_WORDS.is_file():
        from tools.core.errors import ToolError

        raise ToolError(f"{SEARCH_WORDS} is missing: run python -m tools glossary words")
    return config


def _is_en(page) -> bool:
    return page.url == "en/" or page.url.startswith("en/")


def _inner_build(config) -> bool:
    """The i18n plugin's inner (English) build: the site is not complete yet."""
    i18n = config.plugins.get("i18n")
    return i18n is not None and getattr(i18n, "building", False)


def finish_page_html(output: str, page, config) -> str:
    if _is_en(page):
        output = use_english_search_index(output)
    return output


_404: dict[str, str] = {}


def keep_default_404(output: str, template_name: str, config) -> str:
    # Both language builds write the one /404.html; keep the default language's.
    if template_name == "404.html" and config.theme.get("language") == "zh":
        _404["zh"] = output
    return output


def write_default_404(config) -> None:
    if not _inner_build(config) and "zh" in _404:
        (Path(config.site_dir) / "404.html").write_text(_404.pop("zh"), encoding="utf-8")


def index_search(config) -> None:
    """Pagefind over the finished site, pages in the navigation's reading order."""
    if not _inner_build(config):
        index_site(Path(config.site_dir), nav_pages(config["nav"]))
