"""The glossary (docs/<lang>/glossary.md) as data, and the search words made from it.

Each glossary row is ``| <span class="glossary-term" id="ID">English</span> | 中文 | note |
not used |``. tests/content/test_glossary.py checks the pages against it; the zh column also
feeds jieba (data/search-words.zh.txt), so a search for a term matches it whole.
``python -m tools glossary words`` (``tools/chapters/glossary/cli.py``) rewrites that file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.core import data as datafile
from tools.core.errors import ToolError
from tools.core.repo import ROOT, rel

WORDS = ROOT / "data" / "search-words.zh.txt"
_ROW = re.compile(
    r'^\|\s*<span class="glossary-term" id="(?P<id>[a-z0-9-]+)">(?P<en>[^<]+)</span>\s*\|'
    r"(?P<zh>[^|]*)\|(?P<note>[^|]*)\|(?P<avoid>[^|]*)\|\s*$"
)


@dataclass(frozen=True)
class Term:
    id: str
    en: str
    zh: str  # the one translation the zh pages use, with any（…）gloss
    avoid: tuple[str, ...]  # renderings the zh pages must not use

    @property
    def zh_word(self) -> str:
        """The term as it appears in running text: 截断 BPTT（…） -> 截断 BPTT."""
        return self.zh.split("（", 1)[0].strip()


class GlossaryError(ToolError, ValueError):
    """A glossary row that does not parse or breaks data/schemas/glossary.schema.json."""


def terms(lang: str = "zh") -> list[Term]:
    path = ROOT / "docs" / lang / "glossary.md"
    rows, lines = [], {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if 'class="glossary-term"' not in line:
            continue
        m = _ROW.match(line)
        if not m:
            raise GlossaryError(
                f"{rel(path)}:{n}: a glossary row must read "
                '| <span class="glossary-term" id="id">English</span> | 中文 | note | not used |'
            )
        avoid = [w.strip() for w in m["avoid"].split("、") if w.strip()]
        lines[("terms", len(rows))] = n
        rows.append({"id": m["id"], "en": m["en"].strip(), "zh": m["zh"].strip(), "avoid": avoid})
    doc = datafile.Document(path, {"terms": rows}, lines)
    datafile.check(doc, "glossary.schema.json", entries="terms", error=GlossaryError)
    return [Term(r["id"], r["en"], r["zh"], tuple(r["avoid"])) for r in rows]


def search_words(glossary: list[Term]) -> list[str]:
    """Chinese terms jieba should keep whole (one word each, no spaces).

    A compound that holds another term after its start (非叶子节点, 停止梯度) is left to
    jieba's own cut, so a search for the inner term (叶子节点, 梯度) still finds it.
    """
    words = [
        t.zh_word for t in glossary if len(t.zh_word) > 1 and not t.zh_word.isascii() and " " not in t.zh_word
    ]
    return [w for w in words if not any(o != w and o in w[1:] for o in words)]


def words_file_text(glossary: list[Term]) -> str:
    # No frequency: jieba then picks one that makes sure the word is cut out whole.
    return "".join(f"{w}\n" for w in search_words(glossary))
