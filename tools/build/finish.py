"""The passes over the built site that need the rendered page, run once after the
engine (``python -m tools build finish SITE``; the MkDocs hook runs it at the end of
every build, ``make build`` after any engine).

Over each page's article (``tools.site.reader_html`` holds the passes): numbered,
captioned, zoomable figures with their phone width; long inline names that may wrap;
table cells labelled for phone cards; aligned outputs marked; zh headings and zh
navigation entries that break only between words; code-block titles linked to their
files. In the head: no hreflang ``<link>`` tags. Then the last line of defence: no page
may hold script a browser could run (``tools.pages.checks.executable_html_problems``).

A page's result depends only on its HTML, the figures it shows, its Markdown (for the
code-block titles) and this code, so each is kept in the build cache by those inputs
and a warm build does nothing new for an unchanged page.
"""

from __future__ import annotations

import re
from pathlib import Path

from tools.core import cache as build_cache
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT, source_repository

KIND = "finished-page"
_ARTICLE = re.compile(r'(<article class="md-content__inner md-typeset">)(?P<body>.*?)(</article>)', re.S)
_NAV = re.compile(r'(<span class="md-ellipsis">)(?P<text>[^<]*[\u3400-\u9fff][^<]*)(</span>)')
_CODE = [ROOT / "tools" / "build" / "finish.py", ROOT / "tools" / "site" / "reader_html.py"]


def _page_of(site: Path, html_path: Path) -> tuple[str, Path | None, str]:
    """(language, the page's Markdown under docs/<lang>/ or None, its site URL)."""
    rel = html_path.relative_to(site).as_posix()
    lang = next((lg for lg in LANGS[1:] if rel.startswith(f"{lg}/")), LANGS[0])
    inner = rel[len(lang) + 1 :] if lang != LANGS[0] else rel
    url = rel.removesuffix("index.html")
    if inner == "index.html":
        candidates = ["index.md"]
    elif inner.endswith("/index.html"):
        stem = inner.removesuffix("/index.html")
        candidates = [f"{stem}.md", f"{stem}/index.md"]
    else:
        candidates = []  # 404.html, the API page's objects.inv ...
    found = next((c for c in candidates if (DOCS / lang / c).is_file()), None)
    return lang, Path(found) if found else None, url


def _svg_reader(site: Path, url: str):
    import posixpath

    def read(src: str) -> str | None:
        path = site / posixpath.normpath(posixpath.join(url or ".", src))
        return path.read_text(encoding="utf-8") if path.is_file() else None

    return read


def finish_page(text: str, lang: str, page: Path | None, url: str, site: Path) -> str:
    """One built page with the passes applied."""
    from tools.downloads.html import link_snippet_titles
    from tools.site import reader_html as passes

    where = f"docs/{lang}/{page.as_posix()}" if page else url or "/"

    def article(m: re.Match) -> str:
        body = m["body"]
        body = passes.break_long_names(body)
        try:
            body = passes.figures_to_html(body, lang)
        except ValueError as err:
            raise ToolError(f"{where}: {err}") from None
        body = passes.figures_min_width(body, _svg_reader(site, url))
        body = passes.label_table_cells(body, lang)
        body = passes.mark_aligned_outputs(body)
        body = passes.break_headings_at_words(body, lang)
        if page is not None:
            markdown = (DOCS / lang / page).read_text(encoding="utf-8")
            body = link_snippet_titles(body, markdown, url, lang, source_repository())
        return m.group(1) + body + m.group(3)

    text = _ARTICLE.sub(article, text, count=1)
    if lang == "zh":  # navigation entries break between words, as headings do
        text = _NAV.sub(lambda m: m.group(1) + passes.segment_words(m["text"]) + m.group(3), text)
    return passes.drop_alternate_links(text)


def _key(text: str, lang: str, page: Path | None, url: str, site: Path) -> str:
    parts: list[object] = [lang, url, text, *(p.read_bytes() for p in _CODE)]
    if page is not None:
        parts.append((DOCS / lang / page).read_bytes())
    from tools.site.reader_html import narrow_src

    for src in re.findall(r'<img alt="[^"]*" src="([^"]+\.svg)"', text):
        for shown in (src, narrow_src(src)):  # the phone layout too, where there is one
            parts.append(_svg_reader(site, url)(shown) or "")
    parts.append(repr(source_repository()))
    return build_cache.key(*parts)


def finish(site: Path) -> int:
    """Apply the passes to every page of ``site``; the number of pages rewritten.
    A page holding script a browser could run is an error naming it."""
    from tools.pages.checks import executable_html_problems

    rewritten, problems = 0, []
    for html_path in sorted(site.rglob("*.html")):
        text = html_path.read_text(encoding="utf-8")
        lang, page, url = _page_of(site, html_path)
        key = _key(text, lang, page, url, site)
        done = build_cache.get(KIND, key)
        if done is None:
            done = finish_page(text, lang, page, url, site)
            build_cache.put(KIND, key, done)
        if done != text:
            html_path.write_text(done, encoding="utf-8")
            rewritten += 1
        where = f"docs/{lang}/{page.as_posix()}" if page else html_path.relative_to(site).as_posix()
        problems += executable_html_problems(_ARTICLE.search(done)[0] if _ARTICLE.search(done) else "", where)
    if problems:
        raise ToolError("\n".join(dict.fromkeys(problems)))
    return rewritten
