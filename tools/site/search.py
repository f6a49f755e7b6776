"""The site's search, per language (tools/site/reader_hook.py and
tools/site/cache_hook.py call these).

- Search words: the glossary's Chinese terms (data/search-words.zh.txt, made by
  ``python -m tools glossary words``) go into jieba's dictionary, so 叶子节点 stays one
  word in the index and a search for it highlights the whole word. (The search
  plugin's own ``jieba_dict_user`` option takes a path relative to the working
  directory only.)
- Index: each language gets its own index (``search/search_index.json`` for zh,
  ``en/search/search_index.json`` for en).
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
            from tools.core.errors import ToolError

            raise ToolError(
                f"{worker.name}: Material's search worker no longer has the query "
                "segmenter loop tools/site/search.py patches (found "
                f"{n}). Check whether Chinese queries are still cut short, then update "
                "or drop patch_search_worker."
            )
        worker.write_text(new, encoding="utf-8")
        patched.append(worker)
    return patched
