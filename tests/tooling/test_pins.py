"""Upstream traceability: site claims cite the PyTorch tests that pin them.

Every cited test must be in the committed list of test names found at the
pinned commit, every pin must be placed on its page in both languages, and
the rendered line must be localized and link each test.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from tools.chapters.pins import hook
from tools.chapters.pins import load as pp
from tools.chapters.pins import render as pins_render
from tools.core.errors import ToolError
from tools.core.repo import CJK
from tools.pages import parse as pages

PINS = pp.load()


def _markers_by_page(lang: str) -> dict[str, list[list[str]]]:
    out = {}
    for page in pages.pages(lang):
        found = pp.markers(pages.text(lang, page))
        if found:
            out[page.as_posix()] = found
    return out


def test_at_least_twenty_claims_cite_upstream_tests():
    assert len(PINS.pins) >= 20, f"only {len(PINS.pins)} pins"
    cited = {str(t) for p in PINS.pins.values() for t in p.tests}
    assert len(cited) >= 20


def test_every_cited_test_is_in_the_list_found_at_the_commit():
    names = pp.known_tests()
    for pin in PINS.pins.values():
        for test in pin.tests:
            assert str(test) in names, f"{pin.id}: {test} not at the commit"
            assert test.file in PINS.commits, f"{pin.id}: {test.file}"


def test_the_list_records_the_commit_of_every_cited_file():
    header = [ln for ln in pp.NAMES.read_text(encoding="utf-8").splitlines() if ln.startswith("#")]
    text = "\n".join(header)
    for file, commit in PINS.commits.items():
        assert f"file: {file}" in text, f"{pp.NAMES.name}: no header for {file}"
        assert f"commit: {commit}" in text, f"{file}: commit {commit} missing"
    listed = {t.split("::")[0] for t in pp.known_tests()}
    assert listed == set(PINS.commits), "names list and commits disagree"


@pytest.mark.parametrize("lang", pages.LANGS)
def test_every_pin_is_placed_once_on_its_page(lang):
    placed: dict[str, str] = {}
    for page, groups in _markers_by_page(lang).items():
        for ids in groups:
            for pin_id in ids:
                assert pin_id in PINS.pins, f"docs/{lang}/{page}: {pin_id}?"
                assert pin_id not in placed, f"{pin_id} placed twice"
                assert PINS.pins[pin_id].page == page, (
                    f"{pin_id} is on docs/{lang}/{page}, data says {PINS.pins[pin_id].page}"
                )
                placed[pin_id] = page
    missing = sorted(set(PINS.pins) - set(placed))
    assert not missing, f"pins with no marker in docs/{lang}/: {missing}"


def test_both_languages_place_the_same_pins_in_the_same_order():
    assert _markers_by_page("zh") == _markers_by_page("en")


@pytest.mark.parametrize("lang", pages.LANGS)
def test_rendered_line_is_localized_and_links_each_test(lang):
    for pin in PINS.pins.values():
        html = pins_render.render(PINS, [pin.id], lang)
        for test in pin.tests:
            assert f"<code>{test.name}</code></a>" in html
            assert PINS.url(test) in html
            assert PINS.commits[test.file] in PINS.url(test)
        label = pins_render.LABELS[lang]["one"]
        assert label in html
        if lang == "en":
            assert not CJK.search(html)
    many = pins_render.render(PINS, ["table-detach", "table-requires-grad"], lang)
    at = pins_render.LABELS[lang]["at"].format(
        file="test/test_autograd.py", commit=PINS.commits["test/test_autograd.py"][:7]
    )
    assert pins_render.LABELS[lang]["many"].format(at=at) in many
    assert many.count("5c322af") == 1 + 3  # once in the heading, then URLs
    assert "<code>detach()</code>" + pins_render.LABELS[lang]["colon"] in many


def _write(tmp_path: Path, pins: list[dict]) -> Path:
    data = yaml.safe_load(pp.DATA.read_text(encoding="utf-8"))
    data["pins"] = pins
    path = tmp_path / "upstream-tests.yml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def test_a_test_not_found_at_the_commit_fails_naming_the_pin(tmp_path):
    bad = {
        "id": "made-up",
        "page": "internals/comparison.md",
        "claim": "x",
        "tests": ["test/test_autograd.py::TestAutograd::test_no_such_thing"],
    }
    with pytest.raises(pp.PinError, match="made-up.*test_no_such_thing"):
        pp.load(_write(tmp_path, [bad]))


def test_bad_entries_fail_loudly(tmp_path):
    base = {
        "id": "x",
        "page": "internals/comparison.md",
        "claim": "x",
        "tests": ["test/test_autograd.py::TestAutograd::test_detach"],
    }
    cases = [
        ({**base, "colour": "red"}, "unknown"),
        ({**base, "page": "nowhere.md"}, "does not exist"),
        ({**base, "tests": ["test_detach"]}, "<file>::<Class>::<test>"),
        ({**base, "tests": ["test/other.py::T::test_detach"]}, "no commit"),
    ]
    for entry, message in cases:
        with pytest.raises(pp.PinError, match=re.escape(message)):
            pp.load(_write(tmp_path, [entry]))
    with pytest.raises(pp.PinError, match="twice"):
        pp.load(_write(tmp_path, [base, base]))


def _page(src_uri: str):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri))


def test_the_hook_replaces_markers_and_rejects_a_wrong_page():
    config = SimpleNamespace(theme={"language": "zh"})
    hook.load_pins(config)
    md = "text\n\n<!-- pytorch-pins: detach-base-views -->\n"
    out = hook.add_pin_lines(md, _page("zh/internals/what-detach-does.md"), config, None)
    assert "pytorch-pins:" not in out and "test_detach_base" in out
    assert pins_render.LABELS["zh"]["one"] in out
    with pytest.raises(ToolError, match="another page"):
        hook.add_pin_lines(md, _page("en/internals/comparison.md"), config, None)
    with pytest.raises(ToolError, match="unknown pin"):
        hook.add_pin_lines("<!-- pytorch-pins: nope -->", _page("en/index.md"), config, None)
