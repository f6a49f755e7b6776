"""The site's search, per language (tools/site/reader_hook.py and
tools/site/cache_hook.py call these).

- Search words: the glossary's Chinese terms (data/search-words.zh.txt, made by
  ``python -m tools glossary words``) go into jieba's dictionary, so 叶子节点 stays one
  word in the index and a search for it highlights the whole word. (The search
  plugin's own ``jieba_dict_user`` option takes a path relative to the working
  directory only.)
- Index: each language gets its own index (``search/search_index.json`` for zh,
  ``en/search/search_index.json`` for en).
- Index content (``compact_docs``): code blocks, the fact check's evidence sections
  and the FAQ's collected-data list stay out of the index (readers search for what a
  page says, not for the code that checks it), as do HTML tags in the text (inline
  code shows as plain text in an excerpt) and the word separators next to
  punctuation; each index stays under 500 KB. The cheat
  sheet, the comparison and the FAQ pages weigh more (``BOOST``, what Material's
  ``search.boost`` front matter sets).
- Stop words: a query's 和 / 与 / 的 / 区别 / 有什么 / vs ... are dropped before it
  is searched (``STOP_WORDS``, patched into the worker), so "detach 和 clone 区别"
  searches for detach and clone, and no excerpt highlights 和. A finished English
  word (any but the last) is searched whole, not as a prefix (Material adds ``*``
  to every word), so "detach no_grad" does not rank detach_ first.
- Search query: Material's worker splits a Chinese query into words it finds in the
  index, but never tries the query's last character, so 叶子节点 becomes 叶子 + 节
  and only 节 is highlighted. ``patch_search_worker`` lets it try the whole query
  (one character in the worker's minified source; the build fails loudly if
  Material changes that code).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tools.core.repo import ROOT

SEARCH_WORDS = ROOT / "data" / "search-words.zh.txt"


def load_search_words() -> None:
    """Put the glossary's words into jieba's dictionary (once per process).

    Called by the search-entry cache (tools/site/cache_hook.py) before the first page
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


# Pages that answer the questions people search for rank higher (Material's
# search.boost): the site-relative URL prefix -> (boost of the page's own entry, of
# its sections). An FAQ entry is a section whose title is the question: it outweighs
# a page that only mentions the same words (Material favours a page's own entry).
# The benchmarks and the fact check, which name every API, weigh less.
BOOST = {
    "cheat-sheet/": (3.0, 3.0),
    "internals/comparison/": (2.5, 2.5),
    "faq/": (1.0, 3.0),
    "benchmarks/": (0.6, 0.6),
    "fact-check/": (0.6, 0.6),
}
# Sections whose text is bookkeeping, not something a reader searches for: the fact
# check's evidence, the FAQ's method and its list of all questions (each question is
# indexed as its own entry), the end-of-page sources, and the changelog of releases.
LEFT_OUT = re.compile(r"^fact-check/#evidence|^faq/#method|^faq/#all|#sources$|^reference/changelog/")
_PRE = re.compile(r"<pre>.*?</pre>", re.S)
_BLOCK_TAGS = re.compile(
    r"</?(?:p|ul|ol|li|div|span|table|thead|tbody|tr|td|th|em|strong|a|small|br|sup|dl|dt|dd|code|"
    r"blockquote|details|summary|h\d)\b[^>]*>"
)
# Punctuation the index's separator (mkdocs.yml) splits on: a word separator next to
# it is redundant.
PUNCTUATION = "，。、；：？！（）“”《》"
_AROUND_PUNCTUATION = re.compile(f"\u200b*([{PUNCTUATION}])\u200b*")
_SPACES = re.compile(r"\s*\u200b\s+|\s+\u200b\s*|\s+")


def compact_docs(docs: list[dict]) -> list[dict]:
    """The index entries readers search: no code blocks or bookkeeping sections, no
    markup around the text, the pages that answer common questions boosted."""
    out = []
    for doc in docs:
        loc = doc["location"]
        if LEFT_OUT.search(loc):
            continue
        text = _PRE.sub(" ", doc["text"])
        text = _BLOCK_TAGS.sub(" ", text)
        text = _AROUND_PUNCTUATION.sub(r"\1", text)
        text = _SPACES.sub(" ", text).strip()
        # The word separator as a tab: the index's separator splits on it as on any
        # \s, JSON spends 2 bytes on it, not 3 (zh has ~34,000); site.js drops it
        # from the results shown.
        doc = {**doc, "text": text.replace("\u200b", "\t")}
        page = loc.partition("#")[0]
        boost = next((b for prefix, b in BOOST.items() if page.startswith(prefix)), None)
        if boost is not None:
            doc["boost"] = boost[1] if "#" in loc else boost[0]
        out.append(doc)
    return out


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
    zh, en = compact_docs(zh), compact_docs(en)
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    combined.write_text(json.dumps({**data, "docs": zh}, **compact), encoding="utf-8")
    target = site_dir / "en" / "search" / "search_index.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({**data, "docs": en}, **compact), encoding="utf-8")
    return {"zh": len(zh), "en": len(en)}


# Query words that say nothing about what is searched for: dropped from a query
# before it is searched (a query of stop words only is searched as typed). The
# single-character Chinese ones only where they stand alone or next to Latin text
# ("detach和clone"), never inside a Chinese word (保存的张量 stays whole).
STOP_WORDS = {
    "zh_words": ["有什么", "什么", "区别", "不同", "怎么", "如何"],
    "zh_chars": "和与的吗呢",
    "en": [
        "vs",
        "vs.",
        "versus",
        "and",
        "or",
        "the",
        "a",
        "an",
        "of",
        "what",
        "is",
        "are",
        "between",
        "difference",
        "differences",
        "how",
        "does",
        "do",
    ],
}


_STOP_WORD_JS = r"""
function __siteStopWords(q) {
  var en = new Set(EN);
  var kept = [];
  for (var w of q.split(/\s+/)) {
    if (!w || en.has(w.toLowerCase())) continue;
    w = w.replace(/WORDS/g, " ")
      .replace(/(^|[^\p{sc=Han}])[CHARS]+(?=[^\p{sc=Han}]|$)/gu, "$1 ")
      .trim();
    if (w) kept.push(w);
  }
  // A finished word (every word but the last, which may still be being typed) is
  // searched as typed, not as a prefix: "detach no_grad" should not match detach_.
  for (var i = 0; i < kept.length - 1; i++) {
    if (/^[A-Za-z_][\w.]*(\(\))?$/.test(kept[i])) kept[i] = kept[i].replace(/\(\)$/, "") + "^1";
  }
  return kept.join(" ").trim() || q;
}
"""


def _stop_word_js() -> str:
    return (
        _STOP_WORD_JS.replace("EN", json.dumps(STOP_WORDS["en"]))
        .replace("WORDS", "|".join(STOP_WORDS["zh_words"]))
        .replace("CHARS", STOP_WORDS["zh_chars"])
    )


_SEARCH_METHOD = "search(e){if(e=e.replace("

# Material 9.8's query segmenter: for(let o=s+1;o<t.length;o++)t.slice(s,o)in e
_SEGMENTER_LOOP = re.compile(r"for\(let (\w)=(\w)\+1;\1<(\w)\.length;\1\+\+\)\3\.slice\(\2,\1\)in \w")


def patch_search_worker(site_dir: Path) -> list[Path]:
    """Let the search worker's query segmenter consider the whole query, and drop
    stop words from a query first."""
    workers = sorted((site_dir / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
    patched = []
    for worker in workers:
        text = worker.read_text(encoding="utf-8")
        new, n = _SEGMENTER_LOOP.subn(lambda m: m.group(0).replace("<", "<=", 1), text)
        if n == 1 and new.count(_SEARCH_METHOD) == 1:
            stop = "search(e){if(e=__siteStopWords(e),e=e.replace("
            new = new.replace(_SEARCH_METHOD, stop) + _stop_word_js()
        else:
            n = 0
        if n != 1:
            from tools.core.errors import ToolError

            raise ToolError(
                f"{worker.name}: Material's search worker no longer has the query "
                "segmenter loop or the search method tools/site/search.py patches (found "
                f"{n}). Check whether Chinese queries are still cut short, then update "
                "or drop patch_search_worker."
            )
        worker.write_text(new, encoding="utf-8")
        patched.append(worker)
    return patched
