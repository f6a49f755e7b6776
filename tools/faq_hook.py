"""MkDocs hook: serve every FAQ page freshly rendered from ``data/questions.yml``.

``on_pre_build`` validates the data (``tools.faq_data``), so a bad entry fails the
build naming it; ``on_page_markdown`` replaces each page under ``<lang>/faq/`` with
its rendering (``tools.faq_render``), so ``mkdocs serve`` shows a data edit at once.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.plugins import event_priority

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(_ROOT))

from tools.faq_data import FAQ_DIR, Faq, FaqError, load  # noqa: E402
from tools.faq_render import render_index, render_topic  # noqa: E402
from tools.repo import LANGS  # noqa: E402

_loaded: list[Faq] = []


def on_pre_build(config) -> None:
    _loaded.clear()
    _loaded.append(load())


@event_priority(110)  # first: the other hooks and build checks see the rendered page
def on_page_markdown(markdown: str, page, config, files) -> str:
    uri = page.file.src_uri
    parts = uri.split("/")
    if parts[0] in LANGS:
        lang, rest = parts[0], parts[1:]
    else:
        lang, rest = str(config.theme.get("language") or "zh"), parts
    if len(rest) != 2 or rest[0] != FAQ_DIR or lang not in LANGS:
        return markdown
    faq = _loaded[0] if _loaded else load()
    name = rest[1].removesuffix(".md")
    if name == "index":
        return render_index(faq, lang)
    if name not in faq.topics:
        raise FaqError(f"{uri}: no topic {name!r} in data/questions.yml; delete the page or add the topic.")
    return render_topic(faq, lang, name)
