"""MkDocs handlers: serve every FAQ page freshly rendered from ``data/questions.yml``.

``on_pre_build`` validates the data (``tools.chapters.faq.load``), so a bad entry fails the
build naming it; ``on_page_markdown`` replaces each page under ``<lang>/faq/`` with
its rendering (``tools.chapters.faq.render``), so ``mkdocs serve`` shows a data edit at once.
"""

from __future__ import annotations

from mkdocs.utils.meta import get_data

from tools.chapters.faq.load import FAQ_DIR, Faq, FaqError, load
from tools.chapters.faq.render import render_index, render_topic
from tools.core.repo import page_lang

_loaded: list[Faq] = []


def load_questions(config) -> None:
    _loaded.clear()
    _loaded.append(load())


def render_faq_page(markdown: str, page, config, files) -> str:
    uri = page.file.src_uri
    lang, path = page_lang(uri, config)
    rest = path.split("/")
    if len(rest) != 2 or rest[0] != FAQ_DIR:
        return markdown
    faq = _loaded[0] if _loaded else load()
    name = rest[1].removesuffix(".md")
    if name == "index":
        rendered = render_index(faq, lang)
    elif name not in faq.topics:
        raise FaqError(f"{uri}: no topic {name!r} in data/questions.yml; delete the page or add the topic.")
    else:
        rendered = render_topic(faq, lang, name)
    # MkDocs read the page's front matter already: without this, the rendering's
    # own front matter would show as a rule and a "description:" heading.
    return get_data(rendered)[0]
