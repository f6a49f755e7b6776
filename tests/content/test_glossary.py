"""The pages use the glossary's terms: one translation per term, the same list in
both languages, and the search dictionary made from it is current."""

from __future__ import annotations

import re

import pytest

from tools.chapters.glossary import load as glossary
from tools.pages import parse as pages

ZH_TERMS = glossary.terms("zh")
EN_TERMS = glossary.terms("en")
# Words no zh page may use, besides each term's "not used here" column.
BANNED = {"种子文章": "the posts are 博文 A/B/C (see docs/zh/index.md#posts)"}


def _prose(md: str) -> str:
    """Reader-visible prose of a page: no fenced code, inline code, link targets or HTML tags."""
    md = re.sub(r"^(\s*)(`{3,}|~{3,}).*?^\1\2\s*$", "", md, flags=re.DOTALL | re.MULTILINE)
    md = re.sub(r"`[^`\n]*`", "", md)
    md = re.sub(r"\]\([^)]*\)", "]", md)
    return re.sub(r"<[^>]+>", "", md)


ZH_PAGES = {p: _prose(pages.text("zh", p)) for p in pages.pages("zh") if p.name != "glossary.md"}


def test_both_glossaries_list_the_same_terms():
    assert ZH_TERMS, "docs/zh/glossary.md has no term rows"
    assert [(t.id, t.en, t.zh) for t in ZH_TERMS] == [(t.id, t.en, t.zh) for t in EN_TERMS], (
        "docs/zh/glossary.md and docs/en/glossary.md must list the same terms (id, English, "
        "中文) in the same order"
    )
    ids = [t.id for t in ZH_TERMS]
    assert len(ids) == len(set(ids)), f"duplicate term ids: {sorted({i for i in ids if ids.count(i) > 1})}"


@pytest.mark.parametrize("term", ZH_TERMS, ids=lambda t: t.id)
def test_one_translation_per_term(term):
    assert " / " not in term.zh and "／" not in term.zh, (
        f"glossary term {term.id!r} has several translations ({term.zh}): pick one and list "
        "the others in the last column"
    )


@pytest.mark.parametrize("term", ZH_TERMS, ids=lambda t: t.id)
def test_pages_use_the_glossary_translation(term):
    bad = []
    for page, text in ZH_PAGES.items():
        for word in term.avoid:
            if word in text:
                bad.append(f"docs/zh/{page}: {word!r}")
    assert not bad, f"use {term.zh_word!r} (glossary: {term.id}) instead of: {bad}"


def test_pages_use_no_banned_word():
    bad = [
        f"docs/zh/{page}: {word!r} ({why})"
        for page, text in ZH_PAGES.items()
        for word, why in BANNED.items()
        if word in text
    ]
    assert not bad, "\n".join(bad)


def test_every_term_is_used_somewhere():
    """A glossary lists the words the pages use, not words nobody reads."""
    everything = "\n".join(pages.text("zh", p) for p in pages.pages("zh") if p.name != "glossary.md")
    unused = [t.id for t in ZH_TERMS if t.zh_word not in everything]
    assert not unused, f"glossary terms used on no zh page (drop them or use them): {unused}"


def test_search_words_follow_the_glossary():
    assert glossary.WORDS.read_text(encoding="utf-8") == glossary.words_file_text(ZH_TERMS), (
        f"{glossary.WORDS.relative_to(glossary.ROOT)} is stale: run python -m tools glossary words"
    )


def test_a_bad_glossary_row_is_reported(tmp_path, monkeypatch):
    bad = tmp_path / "docs" / "zh"
    bad.mkdir(parents=True)
    (bad / "glossary.md").write_text('| <span class="glossary-term" id="x">x</span> | 缺一列 |\n')
    monkeypatch.setattr(glossary, "ROOT", tmp_path)
    with pytest.raises(ValueError, match=r"glossary.md:1: a glossary row must read"):
        glossary.terms("zh")
