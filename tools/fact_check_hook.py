"""MkDocs hook: put the fact-check table where ``docs/<lang>/fact-check.md`` has the
marker ``<!-- fact-check-table -->``.

The data is validated first (``tools.fact_check_data``); a bad entry fails the build
with a ``PluginError`` naming the entry. The table comes from ``tools.fact_check_table``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(_ROOT))

from tools import fact_check_data, fact_check_table  # noqa: E402
from tools.repo import LANGS  # noqa: E402

MARKER = "<!-- fact-check-table -->"


def _lang_of(src_uri: str, config) -> str:
    first = src_uri.split("/", 1)[0]
    if first in LANGS:
        return first
    lang = str(config.theme.get("language") or "zh")
    return lang if lang in LANGS else "zh"


def on_pre_build(config) -> None:
    fact_check_table.page_index.cache_clear()  # mkdocs serve rebuilds in the same process


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    src = page.file.src_uri
    if markdown.count(MARKER) != 1:
        raise PluginError(f"{src}: the marker {MARKER} must appear exactly once.")
    try:
        claims = fact_check_data.load_claims(fact_check_data.DATA)
    except fact_check_data.FactCheckError as err:
        raise PluginError(str(err)) from None
    lang = _lang_of(src, config)
    from_page = src.split("/", 1)[1] if src.split("/", 1)[0] in LANGS else src
    return markdown.replace(MARKER, fact_check_table.render(claims, lang, from_page))
