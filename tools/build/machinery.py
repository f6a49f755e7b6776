"""A page's machinery, as final HTML: the slim line under its title and the block at
its end.

- The line under the title: the page's downloads (``.py``, ``.ipynb``, how to run them)
  and the torch releases its code was checked on, a link to the details at the end.
- The block at the end: "Sources", the PyTorch tests that pin what the page says
  (``<!-- pytorch-pins: ID -->`` markers under the page's headings,
  ``data/upstream-tests.yml``), and the version details (``tools.versions.notes``).

Written by ``tools.build.generate`` into ``overrides/generated/<lang>/<page>.head.html``
and ``.end.html``; the theme's ``partials/content.html`` (overrides/) puts them right
after the page's ``<h1>`` and after its content. Nothing rewrites the page's HTML.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from tools.core.i18n import UI
from tools.core.repo import LANGS

TEXT = UI["machinery"]
_VERSION = re.compile(r"\b(\d+)\.(\d+)(?:\.\d+)?\b")
_TAGS = re.compile(r"<[^>]+>")
_HEADING = re.compile(r"^(?P<hashes>#{2,3})\s+(?P<title>.+?)\s*\{\s*#(?P<id>[\w-]+)[^}]*\}\s*$")


@dataclass
class Machinery:
    head: str = ""
    end: str = ""


def relative(target: str, page_url: str) -> str:
    """``target`` (a site path) as a link from a page at ``page_url`` (``a/b/``)."""
    import posixpath

    link = posixpath.relpath(target or ".", page_url or ".")
    return link + "/" if target.endswith("/") and not link.endswith("/") else link


def page_url(lang: str, page: Path) -> str:
    """The site path of a page: ``a/b.md`` -> ``a/b/``, ``a/index.md`` -> ``a/`` (en under en/)."""
    path = page.with_suffix("").as_posix()
    path = "" if path == "index" else path.removesuffix("/index") + "/"
    return ("" if lang == LANGS[0] else f"{lang}/") + path


def version_range(line: str) -> str:
    """``2.4–2.15`` from a version line's releases (one release: ``2.13``)."""
    found = sorted({(int(a), int(b)) for a, b in _VERSION.findall(_TAGS.sub(" ", line))})
    if not found:
        return ""
    lo, hi = found[0], found[-1]
    return f"{lo[0]}.{lo[1]}" if lo == hi else f"{lo[0]}.{lo[1]}–{hi[0]}.{hi[1]}"


def head_line(lang: str, page: Path, downloads: bool, version_line: str) -> str:
    """The slim line under the title, or "" for a page with neither code nor versions."""
    t = TEXT[lang]
    url = page_url(lang, page)
    items = []
    if downloads:
        from tools.downloads.files import download_uri

        links = []
        for suffix in (".py", ".ipynb"):
            uri = download_uri(lang, page, suffix)
            name = Path(uri).name
            title = html.escape(t[f"{suffix[1:]}_title"])
            links.append(f'<a href="{relative(uri, url)}" download="{name}" title="{title}">{suffix}</a>')
        run = ("" if lang == LANGS[0] else f"{lang}/") + "run-yourself/"
        links.append(f'<a href="{relative(run, url)}">{t["how"]}</a>')
        items.append(f'<span class="page-meta__label">{t["code"]}</span> ' + " · ".join(links))
    span = version_range(version_line)
    if span:
        mark = t["fails"] if "✗" in version_line else t["differs"] if "†" in version_line else ""
        # a range is one word: it never breaks at its dash
        checked = t["checked"].format(range=f'<span class="nowrap">{span}</span>') + mark
        items.append(f'<a class="page-meta__versions" href="#torch-versions">{checked}</a>')
    if not items:
        return ""
    return '<p class="page-meta">' + '<span class="page-meta__sep"> · </span>'.join(items) + "</p>\n"


def headings_of_pins(markdown: str) -> list[tuple[str, str, list[str]]]:
    """(heading title, its anchor, the pin ids under it) for each heading with
    ``<!-- pytorch-pins: ... -->`` markers, in page order."""
    from tools.chapters.pins.load import MARKER

    out: list[tuple[str, str, list[str]]] = []
    title, anchor = "", ""
    for line in markdown.splitlines():
        h = _HEADING.match(line)
        if h:
            title, anchor = h["title"], h["id"]
            continue
        for m in MARKER.finditer(line):
            if out and out[-1][1] == anchor:
                out[-1][2].extend(m["ids"].split())
            else:
                out.append((title, anchor, m["ids"].split()))
    return out


def _inline(markdown: str) -> str:
    """A heading's Markdown as inline HTML: code spans kept, the rest escaped."""
    parts = re.split(r"`([^`]+)`", markdown)
    return "".join(f"<code>{html.escape(p)}</code>" if i % 2 else html.escape(p) for i, p in enumerate(parts))


def sources(markdown: str, lang: str, page: str) -> str:
    """The Sources list of ``page`` (under docs/<lang>/): under which heading PyTorch's
    own tests pin what, or "". A pin placed on another page than its data says, or an
    unknown id, is an error naming the page."""
    from tools.chapters.pins.load import PinError, load
    from tools.chapters.pins.render import tests_html
    from tools.core.errors import ToolError

    found = headings_of_pins(markdown)
    if not found:
        return ""
    t = TEXT[lang]
    pins = load()
    items = []
    where_page = f"docs/{lang}/{page}"
    for title, anchor, ids in found:
        unknown = [i for i in ids if i not in pins.pins]
        if unknown:
            raise ToolError(f"{where_page}: unknown pin id(s) {unknown}; see data/upstream-tests.yml")
        wrong = [i for i in ids if pins.pins[i].page != page]
        if wrong:
            raise ToolError(
                f"{where_page}: pin(s) {wrong} belong on another page "
                "(see 'page:' in data/upstream-tests.yml)"
            )
        try:
            tests = tests_html(pins, ids, lang)
        except PinError as err:
            raise ToolError(f"{where_page}: {err}") from None
        if anchor:
            items.append(t["pinned"].format(where=f'<a href="#{anchor}">{_inline(title)}</a>', tests=tests))
        else:
            items.append(t["pinned_page"].format(tests=tests))
    return (
        f'<h2 id="sources">{t["sources"]}</h2>\n<ul class="page-sources">'
        + "".join(f"<li>{item}</li>" for item in items)
        + "</ul>\n"
    )


def end_block(markdown: str, lang: str, page: str, version_line: str) -> str:
    parts = [sources(markdown, lang, page)]
    if version_line:
        body = version_line.removeprefix('<p class="torch-versions"><small>').removesuffix("</small></p>")
        parts.append(f'<p class="torch-versions" id="torch-versions"><small>{body}</small></p>\n')
    inner = "".join(p for p in parts if p)
    return f'<div class="page-end">\n{inner}</div>\n' if inner else ""
