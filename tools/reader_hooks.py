"""MkDocs hooks for what readers see around the content.

Event handlers only: the HTML comes from tools/reader_html.py (numbered, zoomable
figures; wrappable long names; no hreflang ``<link>`` tags; the English search
index for English pages), the search index and worker from tools/search_index.py
(one index per language, whole-word Chinese queries). On a two-language build
both languages write /404.html; the default language's is kept.

Listed under ``hooks:`` in mkdocs.yml.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(ROOT))

from tools.reader_html import (  # noqa: E402
    break_long_names,
    drop_alternate_links,
    figures_to_html,
    use_english_search_index,
)
from tools.search_index import SEARCH_WORDS, patch_search_worker, split_search_index  # noqa: E402

LANGS = ("zh", "en")


def on_config(config):
    if not SEARCH_WORDS.is_file():
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{SEARCH_WORDS} is missing: run python -m tools.glossary words")
    return config


def page_lang(page) -> str:
    first = page.file.src_uri.split("/", 1)[0]
    return first if first in LANGS else "zh"


def _is_en(page) -> bool:
    return page.url == "en/" or page.url.startswith("en/")


def on_page_content(html_text: str, page, config, files) -> str:
    html_text = break_long_names(html_text)
    try:
        return figures_to_html(html_text, page_lang(page))
    except ValueError as err:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{page.file.src_uri}: {err}") from None


@event_priority(-150)  # after mkdocs-static-i18n has written its tags
def on_post_page(output: str, page, config) -> str:
    output = drop_alternate_links(output)
    if _is_en(page):
        output = use_english_search_index(output)
    return output


_404: dict[str, str] = {}


def on_post_template(output: str, template_name: str, config) -> str:
    # Both language builds write the one /404.html; keep the default language's.
    if template_name == "404.html" and config.theme.get("language") == "zh":
        _404["zh"] = output
    return output


@event_priority(-150)  # after mkdocs-static-i18n has merged both languages' entries
def on_post_build(config) -> None:
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return  # the inner (English) build: the index is not complete yet
    if "zh" in _404:
        (Path(config.site_dir) / "404.html").write_text(_404.pop("zh"), encoding="utf-8")
    site_dir = Path(config.site_dir)
    if (site_dir / "search" / "search_index.json").is_file():
        split_search_index(site_dir)
        patch_search_worker(site_dir)
