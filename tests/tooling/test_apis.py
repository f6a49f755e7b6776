"""The API inventory (data/apis.yml): every candidate API of the pinned torch has an
entry or an out-of-scope reason; every entry is bilingual, with executed, asserting
evidence embedded on both language pages; the generated pages are up to date; a bad
entry fails naming it; every API can be searched for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.chapters.apis import load as A
from tools.chapters.apis import render
from tools.chapters.apis.candidates import candidates
from tools.core import data as datafile
from tools.core.repo import CJK, ROOT
from tools.pages import parse as pages

INV = A.load()
APIS = INV.apis
MIN_ENTRIES = 80


def test_every_candidate_has_an_entry_or_a_reason():
    problems = A.coverage(INV)
    assert not problems, (
        f"{len(problems)} problem(s) between data/apis.yml and the candidates of the pinned torch "
        "(python -m tools apis candidates --missing):\n  " + "\n  ".join(problems)
    )


def test_at_least_eighty_entries():
    assert len(APIS) >= MIN_ENTRIES, f"only {len(APIS)} entries in data/apis.yml"


def test_the_pages_are_fresh():
    bad = render.stale(INV, len(candidates()))
    assert not bad, f"API pages out of date: {bad}; run {render.WRITE_HINT}"


@pytest.mark.parametrize("api", APIS, ids=[a.id for a in APIS])
def test_entry_is_bilingual_with_embedded_recorded_asserting_evidence(api):
    assert CJK.search(api.text["zh"]) and CJK.search(api.short["zh"]), f"{api.id}: no Chinese text"
    assert not CJK.search(api.text["en"] + api.short["en"]), f"{api.id}: Chinese in the English text"
    sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`])", api.text["en"]) if s]
    assert len(sentences) <= 4, f"{api.id}: text_en has {len(sentences)} sentences; say it in two or three"
    for lang in pages.LANGS:
        md = pages.text(lang, api.page)
        assert f"{{ #{api.id} }}" in md, f"docs/{lang}/{api.page} has no heading for {api.id}"
        included = [(i.file, i.section) for i in pages.includes(md)]
        for ev in api.evidence:
            assert (ev.include, ev.section) in included, f"docs/{lang}/{api.page} does not embed {ev.path}"
            assert (ev.record_include, ev.section) in included, f"docs/{lang}/{api.page}: no output"
    for ev in api.evidence:
        assert A.markers.assert_sources(ev.file, ev.section), f"{ev.path}:{ev.section} asserts nothing"
        assert ev.section in A.sections(ev.file.with_suffix(".out")), f"{ev.path}: not recorded"


def _copy_with(tmp_path: Path, old: str, new: str) -> Path:
    text = A.DATA.read_text(encoding="utf-8")
    assert old in text, f"data/apis.yml no longer holds {old!r}: update this test"
    path = tmp_path / "apis.yml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_an_entry_without_an_assert_is_refused(tmp_path):
    bad = _copy_with(
        tmp_path, "snippets/apis/tensor/flags.py:requires-grad\n", "snippets/apis/tensor/flags.py:nothing\n"
    )
    with pytest.raises(A.ApiError, match=r"entry tensor-requires-grad: evidence section 'nothing' is not in"):
        A.load(bad)


def test_a_parameter_the_evidence_does_not_use_is_refused(tmp_path):
    bad = _copy_with(tmp_path, "    params: [force]\n", "    params: [force, dtype]\n")
    with pytest.raises(A.ApiError, match=r"tensor-numpy: parameter 'dtype' is listed in params"):
        A.load(bad)


def test_an_uncovered_candidate_is_named():
    missing = A.Inventory(INV.namespaces, [a for a in APIS if a.id != "tensor-detach"], INV.out_of_scope)
    problems = A.coverage(missing)
    assert any(p.startswith("torch.Tensor.detach (tensor): no entry") for p in problems), problems


def test_a_name_that_is_no_candidate_is_named():
    extra = A.Excused({"zh": "理由", "en": "reason"}, ["torch.Tensor.no_such_thing"])
    problems = A.coverage(A.Inventory(INV.namespaces, APIS, [*INV.out_of_scope, extra]))
    assert (
        "torch.Tensor.no_such_thing is not a candidate of the pinned torch: fix the name or remove it"
        in problems
    )


def test_the_schema_names_file_line_and_entry(tmp_path):
    bad = _copy_with(tmp_path, "  - id: tensor-grad\n", "  - id: tensor-grad\n    colour: red\n")
    with pytest.raises(
        A.ApiError, match=r"apis\.yml:\d+, entry tensor-grad: unknown field\(s\) \['colour'\]"
    ):
        datafile.load(bad, A.SCHEMA, entries="apis", error=A.ApiError)


SEARCH = ROOT / "data" / "search-queries.yml"


def test_every_api_can_be_searched_for_in_both_languages():
    rows = datafile.load(SEARCH, "search-queries.schema.json").data
    expected = {(r["lang"], r["expect"]) for r in rows}
    missing = [
        f"{lang}: {a.page}#{a.id}"
        for a in APIS
        for lang in pages.LANGS
        if (lang, f"{a.page}#{a.id}") not in expected
    ]
    assert not missing, (
        f"no search query expects these entries (data/search-queries.yml, block # apis): {missing}"
    )
