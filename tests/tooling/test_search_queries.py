"""data/search-queries.yml: what readers type into the search and what it should find;
every expected page and heading exists in the query's language."""

from __future__ import annotations

import pytest

from tools.core import data
from tools.core.repo import CJK, ROOT
from tools.pages import parse as pages

QUERIES = data.load(ROOT / "data" / "search-queries.yml", "search-queries.schema.json").data


def test_there_are_queries_in_both_languages():
    assert {q["lang"] for q in QUERIES} == set(pages.LANGS)


@pytest.mark.parametrize("q", QUERIES, ids=[f"{q['lang']}:{q['query']}" for q in QUERIES])
def test_the_expected_page_and_heading_exist(q):
    page, _, anchor = q["expect"].partition("#")
    path = pages.DOCS / q["lang"] / page
    assert path.is_file(), f"data/search-queries.yml: {q['query']!r} expects docs/{q['lang']}/{page}"
    if anchor:
        assert anchor in pages.anchors(path.read_text(encoding="utf-8")), (
            f"data/search-queries.yml: {q['query']!r} expects a heading {{ #{anchor} }} "
            f"in docs/{q['lang']}/{page}"
        )
    if q["lang"] == "en":
        assert not CJK.search(q["query"]), f"{q['query']!r} is marked en but has Chinese"
