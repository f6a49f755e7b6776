"""HTML that readers see around the content (tools/site/reader_hook.py applies it).

- Figures: each ``![alt](….svg)`` paragraph becomes a numbered ``<figure>`` whose
  caption is the alt text ("图 2：…" / "Figure 2: …") and whose image links to the
  SVG itself, so a click (or tap) opens it full size.
- Long inline code (paths, dotted names) may wrap after ``/``, ``.`` and ``_``.
- Head: no ``<link rel="alternate" hreflang>`` tags. Material fetches
  ``<alternate>/sitemap.xml`` for each of them, which 404s for page-level
  alternates; the sitemap already carries the hreflang alternates.
- English pages point Material at the English stand-in search index (Material's
  search box fetches one; the answers come from Pagefind, tools/build/search.py).
- Chinese headings break between words: jieba's, with the glossary's terms
  (data/search-words.zh.txt, made by ``python -m tools glossary words``) in its
  dictionary, so 叶子节点 never breaks inside the term.
"""

from __future__ import annotations

import html
import math
import re

from tools.core.i18n import UI
from tools.core.repo import ROOT

SEARCH_WORDS = ROOT / "data" / "search-words.zh.txt"
_UI = UI["site.reader_html"]


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
        label = _UI[lang]["figure_label"].format(n=count)
        return (
            f'<figure class="site-figure" id="figure-{count}">'
            f'<a class="figure-zoom" href="{m.group("src")}" title="{_UI[lang]["zoom_title"]}">'
            f"{m.group(1)}</a>"
            f'<figcaption><span class="figure-number">{label}</span>{_UI[lang]["figure_sep"]}{alt}'
            f'<span class="figure-cue">{_UI[lang]["figure_cue"]}</span></figcaption></figure>'
        )

    return _FIGURE.sub(sub, content)


# Inline code (one line, not a code block) long enough to overflow a table column:
# paths and dotted or snake_case names of 30 characters or more (a shorter call such
# as t.detach().cpu().numpy() stays whole).
_LONG_INLINE_CODE = re.compile(r"(?<!<pre>)(?<!</span>)<code>([^<\n]{30,})</code>")
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


# --------------------------------------------------------------------------- tables
# Every table's cells carry their column's header (``data-label``), so that a table
# too wide for a phone can show each row as a card (site.js marks such tables, site.css
# lays them out). The comparison table's short column names and outcome words come
# from a script's recorded output; readers see them glossed in their language.
_TABLE = re.compile(r"<table>(?P<body>.*?)</table>", re.S)
_ROW = re.compile(r"<tr>(?P<cells>.*?)</tr>", re.S)
_CELL = re.compile(r"<(?P<tag>t[dh])(?P<attrs>[^>]*)>(?P<inner>.*?)</(?P=tag)>", re.S)
_TAGS = re.compile(r"<[^>]+>")

# The columns and outcomes of the comparison table (snippets/internals/comparison/table.py).
_OUTCOME_CLASS = {"error": "error", "WRONG": "wrong", "correct": "correct"}


def _text(fragment: str) -> str:
    return html.unescape(_TAGS.sub("", fragment)).strip()


def label_table_cells(content: str, lang: str) -> str:
    """Each ``<td>`` gets ``data-label`` (its column's header); the comparison table's
    outcome words become badges in the page's language."""

    def table(m: re.Match) -> str:
        body = m["body"]
        head_row = _ROW.search(body[: body.find("</thead>")]) if "</thead>" in body else None
        if head_row is None:
            return m.group(0)
        headers = [_text(c["inner"]) for c in _CELL.finditer(head_row["cells"])]
        glossed = headers[1:] and all(h in _UI[lang]["column_gloss"] for h in headers[1:])
        labels = [_UI[lang]["column_gloss"].get(h, h) if glossed else h for h in headers]

        def row(r: re.Match) -> str:
            index = [-1]

            def cell(c: re.Match) -> str:
                index[0] += 1
                if c["tag"] != "td" or "data-label" in c["attrs"]:
                    if c["tag"] == "th" and glossed and index[0] > 0:
                        gloss = html.escape(_UI[lang]["column_gloss"][headers[index[0]]])
                        return f'<th{c["attrs"]} title="{gloss}">{c["inner"]}</th>'
                    return c.group(0)
                label = labels[index[0]] if index[0] < len(labels) else ""
                inner = c["inner"]
                word = _text(inner)
                if glossed and word in _UI[lang]["outcomes"]:
                    shown = _UI[lang]["outcomes"][word]
                    inner = f'<span class="outcome outcome--{_OUTCOME_CLASS[word]}">{shown}</span>'
                return f'<td{c["attrs"]} data-label="{html.escape(label)}">{inner}</td>'

            return "<tr>" + _CELL.sub(cell, r["cells"]) + "</tr>"

        cls = ' data-glossed=""' if glossed else ""  # no class: Material styles table:not([class])
        return f"<table{cls}>" + _ROW.sub(row, body) + "</table>"

    return _TABLE.sub(table, content)


# --------------------------------------------------------------------------- outputs
# A recorded output whose columns line up (two spaces or more between values) scrolls
# sideways on a phone instead of wrapping (site.css); other outputs wrap.
_OUTPUT = re.compile(r'<div class="language-text highlight">(?P<body>.*?</code></pre>)', re.S)
_ALIGNED = re.compile(r"\S {2,}\S")


def mark_aligned_outputs(content: str) -> str:
    def sub(m: re.Match) -> str:
        lines = html.unescape(_TAGS.sub("", m["body"])).split("\n")
        if sum(bool(_ALIGNED.search(line.strip())) for line in lines) < 2:
            return m.group(0)
        return '<div class="language-text highlight output-aligned">' + m["body"]

    return _OUTPUT.sub(sub, content)


# --------------------------------------------------------------------------- headings
# Chinese headings break only between words: site.css sets ``word-break: keep-all``
# and the build puts a ``<wbr>`` between the words jieba finds.
_HEADING = re.compile(r"<(?P<tag>h[1-6])(?P<attrs>[^>]*)>(?P<inner>.*?)</(?P=tag)>", re.S)
_HAN = re.compile(r"[\u3400-\u9fff]")
# Words jieba's dictionary splits that a heading should keep on one line.
HEADING_WORDS = ("前向", "反向", "什么时候", "有什么", "怎么办", "为什么", "不报错", "隐状态")
_PARTICLES = set("的了地得吗呢么着过")  # never at the start of a line: they stay with the word before
_PIECE = re.compile(r"(<code>.*?</code>|<[^>]+>)", re.S)


def segment_words(text: str) -> str:
    """Chinese text with a ``<wbr>`` between the words jieba finds (none inside a word)."""
    return _segment(text)


def load_search_words() -> None:
    """Put the glossary's words into jieba's dictionary (once per process, before the
    first Chinese heading: a build of English pages never loads it)."""
    global _words_loaded
    if _words_loaded:
        return
    import jieba

    jieba.load_userdict(str(SEARCH_WORDS))
    _words_loaded = True


_words_loaded = False


def _segment(text: str) -> str:
    if not _HAN.search(text):
        return text
    load_search_words()
    import jieba

    for word in HEADING_WORDS:
        jieba.add_word(word)

    words = [w for w in jieba.cut(html.unescape(text)) if w]
    out = []
    for i, word in enumerate(words):
        prev = words[i - 1][-1] if i else " "
        if (
            _HAN.search(prev + word[0])
            and not (prev.isspace() or word[0].isspace())
            and word[0] not in "，。、；：？！）”》"
            and word not in _PARTICLES
            and prev not in "（“《"
        ):
            out.append("<wbr>")
        out.append(html.escape(word, quote=False))
    return "".join(out)


def break_headings_at_words(content: str, lang: str) -> str:
    """zh headings with a ``<wbr>`` between words (never inside code or a tag)."""
    if lang != "zh":
        return content

    def heading(m: re.Match) -> str:
        parts = _PIECE.split(m["inner"])
        inner = "".join(p if i % 2 else _segment(p) for i, p in enumerate(parts))
        return f"<{m['tag']}{m['attrs']}>{inner}</{m['tag']}>"

    return _HEADING.sub(heading, content)


# --------------------------------------------------------------------------- figures on phones
_GLYPH_SCALE = re.compile(r"scale\(([\d.]+) -\1\)")  # matplotlib text drawn as paths
_VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) [\d.]+"')
MIN_LABEL_PX = 11


def figure_min_width(svg_text: str) -> float | None:
    """The displayed width (CSS px) at which the figure's smallest text is 11 px."""
    view = _VIEWBOX.search(svg_text)
    scales = [float(s) for s in _GLYPH_SCALE.findall(svg_text)]
    if not view or not scales:
        return None
    return MIN_LABEL_PX * float(view[1]) / (min(scales) * 100)


_FIGURE_TAG = re.compile(
    r'<figure class="site-figure" id="figure-\d+"><a class="figure-zoom" href="(?P<src>[^"]+)"'
    r"(?P<rest>[^>]*>)(?P<img><img [^>]*>)"
)
NARROW_MEDIA = "(max-width: 44.9375em)"  # Material's phone breakpoint (site.css uses it too)


def narrow_src(src: str) -> str:
    """The phone layout of a figure (tools/figures/render.py writes ``<name>-narrow.<lang>.svg``)."""
    head, _, tail = src.rpartition("/")
    stem, dot, rest = tail.partition(".")
    return f"{head}{'/' if head else ''}{stem}-narrow{dot}{rest}"


def _whole_px(width: float) -> int:
    """A width in whole pixels at which the text is no smaller than at ``width`` (a
    pixel of margin: the figure is shown at exactly this width when it scrolls)."""
    return math.ceil(width - 1e-6) + 1


def figures_min_width(content: str, read_svg) -> str:
    """Figures on phones. A figure whose script drew a phone layout (panels stacked)
    shows it below 45em (``<picture><source media>``). Each figure gets the minimum
    width at which its text stays 11 px (``--figure-min``, of the layout a phone
    shows): narrower, it scrolls sideways inside its box instead of shrinking."""

    def sub(m: re.Match) -> str:
        narrow = narrow_src(m["src"])
        narrow_text = read_svg(narrow)
        text = narrow_text or read_svg(m["src"])
        width = figure_min_width(text) if text else None
        head = m.group(0)[: m.start("img") - m.start(0)]
        img = m["img"]
        if narrow_text:
            img = (
                f'<picture><source media="{NARROW_MEDIA}" srcset="{html.escape(narrow)}" '
                f'type="image/svg+xml">{img}</picture>'
            )
        if width is not None:
            head = head.replace(
                'class="site-figure"', f'class="site-figure" style="--figure-min: {_whole_px(width)}px"', 1
            )
        return head + img

    return _FIGURE_TAG.sub(sub, content)
