"""Render the fact-check table (Markdown) from validated claims, in one language."""

from __future__ import annotations

import os
from collections import Counter
from functools import cache

from tools import pages
from tools.fact_check_data import VERDICTS, split_evidence
from tools.repo import ROOT

PAGE = "fact-check.md"
POST_NAMES = {"000": "A", "002": "B", "003": "C"}  # what readers call the posts

LABELS = {
    "zh": {
        "verdict": {"true": "正确", "false": "错误", "misleading": "误导", "unverifiable": "无法验证"},
        "header": ("说法", "结论", "理由与证据"),
        "seed": "博文 {post} 第 {section} 节",
        "seed_intro": "博文 {post} 开头",  # reader-facing post names: see docs/*/fact-check.md#posts
        "summary": "共 {n} 条说法：",
        "benchmark": "基准测试",
        "evidence": "证据：",
        "gpu": "GPU：尚未测量",
        "see": "另见：",
        "sep": "、",
        "below": "见下文",
    },
    "en": {
        "verdict": {
            "true": "true",
            "false": "false",
            "misleading": "misleading",
            "unverifiable": "unverifiable as stated",
        },
        "header": ("Claim", "Verdict", "Why, and the evidence"),
        "seed": "Post {post}, section {section}",
        "seed_intro": "Post {post}, opening",
        "summary": "{n} claims: ",
        "benchmark": "benchmark",
        "evidence": "Evidence: ",
        "gpu": "GPU: not yet measured",
        "see": "see also: ",
        "sep": ", ",
        "below": "below",
    },
}


@cache
def page_index(lang: str) -> dict[str, tuple[str, str | None]]:
    """Snippet file (repo-relative) -> (page, anchor of the heading above its first include).

    The page the snippet's folder names wins; otherwise the first page that embeds it.
    """
    found: dict[str, dict[str, str | None]] = {}
    for page in pages.pages(lang):
        md = pages.text(lang, page)
        for offset, inc in pages.iter_includes(md):
            try:
                key = inc.path.relative_to(ROOT).as_posix()
            except ValueError:
                continue
            before = pages.anchors(md[:offset])
            found.setdefault(key, {}).setdefault(page.as_posix(), before[-1] if before else None)
    out = {}
    for key, by_page in found.items():
        owner = pages.owner_pages(ROOT / key)[0]
        page = owner if owner in by_page else next(iter(by_page))
        out[key] = (page, by_page[page])
    return out


def _relative(page: str, from_page: str) -> str:
    return os.path.relpath(page, os.path.dirname(from_page) or ".")


def evidence_link(claim: dict, lang: str, from_page: str = PAGE) -> str:
    """Markdown for the evidence cell: a link to the page that shows it, and its path."""
    path, section = split_evidence(claim["evidence"])
    label = f"`{path}`" + (f" `:{section}`" if section else "")
    found = page_index(lang).get(path)
    if found is None:
        return label
    page, anchor = found
    rel = _relative(page, from_page)
    target = ("" if page == from_page else rel) + (f"#{anchor}" if anchor else "")
    name = LABELS[lang]["below"] if page == from_page else page.removesuffix(".md")
    return f"[{name}]({target or rel}) {label}"


def _cell(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for ch in "`*_[]<>|":
        text = text.replace(ch, "\\" + ch)
    return text.replace("\n", " ")


def _evidence_cell(claim: dict, lang: str, from_page: str) -> str:
    lab = LABELS[lang]
    evidence = evidence_link(claim, lang, from_page)
    if "benchmark" in claim:
        evidence += f"; [{lab['benchmark']}]({_relative(claim['benchmark'], from_page)})"
    if claim.get("gpu"):
        evidence += f"; {lab['gpu']}"
    if claim.get("see"):
        links = [
            f"[{page.removesuffix('.md')}]({_relative(page, from_page)})" for page in claim["see"]
        ]
        evidence += f"<br>{lab['see']}" + lab["sep"].join(links)
    reason = claim["reason_zh"] if lang == "zh" else claim["reason_en"]
    return f"{_cell(reason)}<br>{lab['evidence']}{evidence}"


def render(claims: list[dict], lang: str, from_page: str = PAGE) -> str:
    """The Markdown that replaces the marker: a verdict count and the table."""
    if lang not in LABELS:
        raise ValueError(f"lang must be one of {list(LABELS)}, got {lang!r}.")
    lab = LABELS[lang]
    counts = Counter(c["verdict"] for c in claims)
    summary = lab["summary"].format(n=len(claims)) + lab["sep"].join(
        f"**{lab['verdict'][v]}** {counts.get(v, 0)}" for v in VERDICTS
    )
    lines = [summary, "", "| " + " | ".join(lab["header"]) + " |", "|" + "---|" * len(lab["header"])]
    for c in claims:
        quote = c["quote"] if lang == "zh" else c["quote_en"]
        where = "seed_intro" if c["section"] == "intro" else "seed"
        source = lab[where].format(post=POST_NAMES[c["seed"]], section=c["section"])
        row = [
            f'<span id="{c["id"]}">**{c["id"]}**</span> · {source}<br>“{_cell(quote)}”',
            f"**{lab['verdict'][c['verdict']]}**",
            _evidence_cell(c, lang, from_page),
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)
