"""MkDocs hooks for what readers see around the content.

- Figures: each ``![alt](….svg)`` paragraph becomes a numbered ``<figure>`` whose
  caption is the alt text ("图 2：…" / "Figure 2: …") and whose image links to the
  SVG itself, so a click (or tap) opens it full size.
- Search: each language gets its own index (``search/search_index.json`` for zh,
  ``en/search/search_index.json`` for en), and en pages point Material at theirs.
- Search words: the glossary's Chinese terms (data/search-words.zh.txt, made by
  ``python -m tools.glossary words``) go into jieba's dictionary, so 叶子节点 stays one
  word in the index and a search for it highlights the whole word. (The search
  plugin's own ``jieba_dict_user`` option takes a path relative to the working
  directory only.)
- Search query: Material's worker splits a Chinese query into words it finds in the
  index, but never tries the query's last character, so 叶子节点 becomes 叶子 + 节
  and only 节 is highlighted. ``patch_search_worker`` lets it try the whole query
  (one character in the worker's minified source; the build fails loudly if
  Material changes that code).
- Head: no ``<link rel="alternate" hreflang>`` tags. Material fetches
  ``<alternate>/sitemap.xml`` for each of them, which 404s for page-level
  alternates; the sitemap already carries the hreflang alternates.

Listed under ``hooks:`` in mkdocs.yml.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parent.parent
SEARCH_WORDS = ROOT / "data" / "search-words.zh.txt"
LANGS = ("zh", "en")
FIGURE_LABEL = {"zh": "图 {n}", "en": "Figure {n}"}
FIGURE_SEP = {"zh": "：", "en": ": "}
ZOOM_TITLE = {"zh": "点击查看原图", "en": "Open the full-size figure"}

_FIGURE = re.compile(r'<p>\s*(<img alt="(?P<alt>[^"]*)" src="(?P<src>[^"]+\.svg)"\s*/?>)\s*</p>')
_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_CONFIG_BASE = re.compile(r'(<script id="__config" type="application/json">\{[^<]*?"base":\s*")([^"]*)(")')


def load_search_words() -> None:
    """Put the glossary's words into jieba's dictionary (once per process).

    Called by the search-entry cache (tools/build_cache_hook.py) before the first page
    it has to index, so a build whose pages are all cached never loads jieba's 1-second
    dictionary."""
    global _words_loaded
    if _words_loaded:
        return
    try:
        import jieba
    except ImportError:  # the search plugin then does not segment Chinese either
        return
    jieba.load_userdict(str(SEARCH_WORDS))
    _words_loaded = True


_words_loaded = False


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


def on_page_content(html_text: str, page, config, files) -> str:
    html_text = break_long_names(html_text)
    try:
        return figures_to_html(html_text, page_lang(page))
    except ValueError as err:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{page.file.src_uri}: {err}") from None


@event_priority(-150)  # after mkdocs-static-i18n has written its tags
def on_post_page(output: str, page, config) -> str:
    head, end, body = output.partition("</head>")  # the tags are in <head>: scan only that
    output = _ALTERNATE.sub("", head) + end + body
    if _is_en(page):
        # Material loads search/search_index.json relative to "base": send the
        # English pages to the English index.
        output = _CONFIG_BASE.sub(
            lambda m: m.group(1) + m.group(2).rstrip("/") + "/en/" + m.group(3),
            output,
            1,
        )
    return output


def split_search_index(site_dir: Path) -> dict[str, int]:
    """Split the combined index into one per language; return the entry counts."""
    combined = site_dir / "search" / "search_index.json"
    data = json.loads(combined.read_text(encoding="utf-8"))
    zh, en = [], []
    for doc in data["docs"]:
        loc = doc["location"]
        if loc.startswith("en/"):
            en.append({**doc, "location": loc[3:]})
        else:
            zh.append(doc)
    combined.write_text(json.dumps({**data, "docs": zh}, ensure_ascii=False), encoding="utf-8")
    target = site_dir / "en" / "search" / "search_index.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({**data, "docs": en}, ensure_ascii=False), encoding="utf-8")
    return {"zh": len(zh), "en": len(en)}


# Material 9.8's query segmenter: for(let o=s+1;o<t.length;o++)t.slice(s,o)in e
_SEGMENTER_LOOP = re.compile(r"for\(let (\w)=(\w)\+1;\1<(\w)\.length;\1\+\+\)\3\.slice\(\2,\1\)in \w")


def patch_search_worker(site_dir: Path) -> list[Path]:
    """Let the search worker's query segmenter consider the whole query."""
    workers = sorted((site_dir / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
    patched = []
    for worker in workers:
        text = worker.read_text(encoding="utf-8")
        new, n = _SEGMENTER_LOOP.subn(lambda m: m.group(0).replace("<", "<=", 1), text)
        if n != 1:
            from mkdocs.exceptions import PluginError

            raise PluginError(
                f"{worker.name}: Material's search worker no longer has the query "
                "segmenter loop tools/reader_hooks.py patches (found "
                f"{n}). Check whether Chinese queries are still cut short, then update "
                "or drop patch_search_worker."
            )
        worker.write_text(new, encoding="utf-8")
        patched.append(worker)
    return patched


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
