"""MkDocs handlers for what readers see around the content.

Event handlers only: the English search index for English pages (the passes over
the built pages are tools/build/finish.py's), the search index and worker from
tools/site/search.py
(one index per language, whole-word Chinese queries). On a two-language build
both languages write /404.html; the default language's is kept.

Wired in by tools/site/hooks.py.
"""

from __future__ import annotations

from pathlib import Path

from tools.site.reader_html import use_english_search_index
from tools.site.search import SEARCH_WORDS, patch_search_worker, split_search_index


def require_search_words(config):
    if not SEARCH_WORDS.is_file():
        from tools.core.errors import ToolError

        raise ToolError(f"{SEARCH_WORDS} is missing: run python -m tools glossary words")
    return config


def _is_en(page) -> bool:
    return page.url == "en/" or page.url.startswith("en/")


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
