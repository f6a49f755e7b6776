"""Render the fact-check table (Markdown) from validated claims, in one language.

Readers see page titles, not paths: an evidence link is named after the page that shows
the evidence (or, on the fact-check page itself, after the collapsible example that holds
it), and "see also" and benchmark links after their pages.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from tools.chapters.factcheck.load import VERDICTS
from tools.core import escape
from tools.core.i18n import UI
from tools.core.repo import ROOT
from tools.core.sections import split_evidence
from tools.pages import parse as pages

PAGE = "fact-check.md"
POST_NAMES = {"000": "A", "002": "B", "003": "C"}  # what readers call the posts

LABELS = UI["factcheck"]

_ADMONITION = re.compile(r"""^(?P<indent>[ \t]*)(?:\?\?\?\+?|!!!)\s+[-\w]+\s+"(?P<title>[^"]*)"\s*$""")
# "(s000-01, s000-02)" / "（s000-01、s000-02）" at the end of an example's title
_ID_LIST = re.compile(r"\s*[（(]s\d{3}-\d{2}(?:[、,，]\s*s\d{3}-\d{2})*[）)]\s*$")


@dataclass(frozen=True)
class Shown:
    """Where a snippet is shown: the page, the heading anchor above it, its box title."""

    page: str
    anchor: str | None
    box: str | None


page_title = pages.title


def _box_title(md: str, offset: int) -> str | None:
    """Title of the admonition (e.g. ``??? example "..."``) that encloses ``offset``."""
    offset = md.index("--8<--", offset)  # the include pattern may start on a blank line
    start = md.rfind("\n", 0, offset) + 1
    depth = offset - start  # indentation of the include line
    for line in reversed(md[:start].splitlines()):
        if line.startswith("#"):
            return None
        m = _ADMONITION.match(line)
        if m and len(m["indent"]) < depth:
            return _ID_LIST.sub("", m["title"])
    return None


@cache
def page_index(lang: str) -> dict[tuple[str, str | None], Shown]:
    """(snippet file, section) -> where the reader sees it first; section None: the file.

    The page the snippet's folder names wins; otherwise the first page that embeds it.
    """
    found: dict[tuple[str, str | None], dict[str, Shown]] = {}
    for page in pages.pages(lang):
        md = pages.text(lang, page)
        for offset, inc in pages.iter_includes(md):
            try:
                key = inc.path.relative_to(ROOT).as_posix()
            except ValueError:
                continue
            if not key.startswith("snippets/"):  # shared text (includes/...), not evidence
                continue
            before = pages.anchors(md[:offset])
            shown = Shown(page.as_posix(), before[-1] if before else None, _box_title(md, offset))
            for section in {inc.section, None}:
                found.setdefault((key, section), {}).setdefault(shown.page, shown)
    out = {}
    for (key, section), by_page in found.items():
        owners = [page for page in pages.owner_pages(ROOT / key) if page in by_page]
        out[(key, section)] = by_page[owners[0]] if owners else next(iter(by_page.values()))
    return out


def _relative(page: str, from_page: str) -> str:
    return os.path.relpath(page, os.path.dirname(from_page) or ".")


def page_link(lang: str, page: str, from_page: str, anchor: str | None = None) -> str:
    """A Markdown link to ``page`` named by its title."""
    target = _relative(page, from_page) + (f"#{anchor}" if anchor else "")
    return f"[{_link_text(page_title(lang, page))}]({target})"


def _link_text(title: str) -> str:
    return title.replace("[", "\\[").replace("]", "\\]").replace("|", "\\|")


def evidence_link(claim: dict, lang: str, from_page: str = PAGE) -> str:
    """Markdown for the evidence: a link, named by its title, to where a reader sees it."""
    path, section = split_evidence(claim["evidence"])
    index = page_index(lang)
    shown = index.get((path, section)) or index.get((path, None))
    if shown is None:
        raise ValueError(f"{claim['id']}: no docs/{lang} page embeds {path}; embed the evidence on a page.")
    if shown.page == from_page and shown.box:
        name = LABELS[lang]["below"].format(title=shown.box)
        return f"[{_link_text(name)}](#{shown.anchor or ''})"
    return page_link(lang, shown.page, from_page, shown.anchor)


_cell = escape.plain  # plain text for a table cell: Markdown and HTML shown as themselves


_CLAIM_ID = re.compile(r"\bs\d{3}-\d{2}\b")


def _source(claim: dict, lang: str) -> str:
    """Where a claim stands in its post, as readers see it ("博文 A 第 2 节")."""
    where = "seed_intro" if claim["section"] == "intro" else "seed"
    return LABELS[lang][where].format(post=POST_NAMES[claim["seed"]], section=escape.plain(claim["section"]))


def _claim_links(text: str, claims: dict[str, dict], lang: str) -> str:
    """A claim id in a reason ("见 s000-03") becomes a link named by where that claim
    stands in its post: readers never see the ids."""

    def link(m: re.Match) -> str:
        other = claims.get(m[0])
        return f"[{_source(other, lang)}](#{m[0]})" if other else m[0]

    return _CLAIM_ID.sub(link, text)


def _evidence_cell(claim: dict, lang: str, from_page: str, claims: dict[str, dict] | None = None) -> str:
    lab = LABELS[lang]
    evidence = evidence_link(claim, lang, from_page)
    if "benchmark" in claim:
        evidence += lab["sep"] + page_link(lang, claim["benchmark"], from_page)
    if claim.get("gpu"):
        evidence += lab["gpu"]
    if claim.get("see"):
        links = [page_link(lang, page, from_page) for page in claim["see"]]
        evidence += f"<br>{lab['see']}" + lab["sep"].join(links)
    reason = claim["reason_zh"] if lang == "zh" else claim["reason_en"]
    return f"{_claim_links(_cell(reason), claims or {}, lang)}<br>{lab['evidence']}{evidence}"


def render(claims: list[dict], lang: str, from_page: str = PAGE) -> str:
    """The Markdown that replaces the marker: a verdict count and the table (the claim
    with its verdict as a coloured badge, then the reason and the evidence)."""
    if lang not in LABELS:
        raise ValueError(f"lang must be one of {list(LABELS)}, got {lang!r}.")
    lab = LABELS[lang]
    counts = Counter(c["verdict"] for c in claims)
    summary = lab["summary"].format(n=len(claims)) + lab["sep"].join(
        f"**{lab['verdict'][v]}** {counts.get(v, 0)}" for v in VERDICTS
    )
    lines = [summary, "", "| " + " | ".join(lab["header"]) + " |", "|" + "---|" * len(lab["header"])]
    by_id = {c["id"]: c for c in claims}
    for c in claims:
        quote = c["quote"] if lang == "zh" else c["quote_en"]
        source = _source(c, lang)
        verdict = f'<span class="verdict verdict--{c["verdict"]}">{lab["verdict"][c["verdict"]]}</span>'
        row = [
            f'<span id="{c["id"]}"></span>{verdict} <small>{source}</small><br>“{_cell(quote)}”',
            _evidence_cell(c, lang, from_page, by_id),
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def summary(claims: list[dict], lang: str) -> str:
    """The verdict count as a sentence, for the page's opening."""
    lab = LABELS[lang]
    counts = Counter(c["verdict"] for c in claims)
    counted = [
        lab["summary_count"].format(verdict=lab["verdict"][v], count=counts.get(v, 0)) for v in VERDICTS
    ]
    return lab["summary"].format(n=len(claims)) + lab["sep"].join(counted) + lab["summary_end"]
