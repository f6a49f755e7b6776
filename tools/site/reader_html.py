"""HTML that readers see around the content (tools/site/reader_hook.py applies it).

- Figures: each ``![alt](….svg)`` paragraph becomes a numbered ``<figure>`` whose
  caption is the alt text ("图 2：…" / "Figure 2: …") and whose image links to the
  SVG itself, so a click (or tap) opens it full size.
- Long inline code (paths, dotted names) may wrap after ``/``, ``.`` and ``_``.
- Head: no ``<link rel="alternate" hreflang>`` tags. Material fetches
  ``<alternate>/sitemap.xml`` for each of them, which 404s for page-level
  alternates; the sitemap already carries the hreflang alternates.
- English pages point Material at the English search index
  (tools/site/search.py splits the index per language).
"""

from __future__ import annotations

import re

FIGURE_LABEL = {"zh": "图 {n}", "en": "Figure {n}"}
FIGURE_SEP = {"zh": "：", "en": ": "}
ZOOM_TITLE = {"zh": "点击查看原图", "en": "Open the full-size figure"}

_FIGURE = re.compile(r'<p>\s*(<img alt="(?P<alt>[^"]*)" src="(?P<src>[^"]+\.svg)"\s*/?>)\s*</p>')
_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_CONFIG_BASE = re.compile(r'(<script id="__config" type="application/json">\{[^<]*?"base":\s*")([^"]*)(")')


def figures_to_html(content: str, lang: str) -> str:
    """Wrap each SVG image paragraph in a numbered, captioned, zoomable figure."""
    count = 0

    def sub(m: re.Match) -> str:
        nonlocal count
        count += 1
        alt = m.group("alt")
        if not alt.strip():
            raise ValueError(
                f"An SVG figure has no alt text ({m.group('src')}): write ![caption](…svg), "
                "the alt text becomes the figure's caption."
            )
        label = FIGURE_LABEL[lang].format(n=count)
        return (
            f'<figure class="site-figure" id="figure-{count}">'
            f'<a class="figure-zoom" href="{m.group("src")}" title="{ZOOM_TITLE[lang]}">'
            f"{m.group(1)}</a>"
            f'<figcaption><span class="figure-number">{label}</span>{FIGURE_SEP[lang]}{alt}'
            "</figcaption></figure>"
        )

    return _FIGURE.sub(sub, content)


# Inline code (one line, not a code block) long enough to overflow a table column:
# paths and dotted or snake_case names.
_LONG_INLINE_CODE = re.compile(r"(?<!<pre>)(?<!</span>)<code>([^<\n]{24,})</code>")
_BREAK_AFTER = re.compile(r"(?<=[/._])(?=[^/._])")


def break_long_names(content: str) -> str:
    """Let long inline code wrap after ``/``, ``.`` and ``_`` (``<wbr>``), never inside
    a word, so a table of file paths fits the text column instead of scrolling."""
    return _LONG_INLINE_CODE.sub(lambda m: f"<code>{_BREAK_AFTER.sub('<wbr>', m[1])}</code>", content)


def drop_alternate_links(output: str) -> str:
    """The page without the hreflang ``<link rel="alternate">`` tags of its head."""
    head, end, body = output.partition("</head>")  # the tags are in <head>: scan only that
    return _ALTERNATE.sub("", head) + end + body


def use_english_search_index(output: str) -> str:
    """Material loads search/search_index.json relative to "base": send an English
    page to the English index."""
    return _CONFIG_BASE.sub(
        lambda m: m.group(1) + m.group(2).rstrip("/") + "/en/" + m.group(3),
        output,
        1,
    )
