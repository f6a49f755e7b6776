"""Upstream traceability: site claims cite the PyTorch tests that pin them.

Every cited test must be in the committed list of test names found at the
pinned commit and link to its line there, every pin must be placed on its page
in both languages, its evidence (a snippet section on that page) must assert
something, and the rendered line must be localized and link each test.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from tools.chapters.pins import load as pp
from tools.chapters.pins import render as pins_render
from tools.core import sections
from tools.core.errors import ToolError
from tools.core.repo import CJK, ROOT, rel
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
def test_sources_are_localized_and_link_each_test(lang):
    for pin in PINS.pins.values():
        html = pins_render.tests_html(PINS, [pin.id], lang)
        for test in pin.tests:
            assert f"<code>{test.name}</code></a>" in html
            assert PINS.url(test) in html
            assert PINS.commits[test.file] in PINS.url(test)
            assert PINS.url(test).endswith(f"/{test.file}#L{test.line}"), PINS.url(test)
        at = pins_render.LABELS[lang]["at"].format(
            file=pin.tests[0].file, commit=PINS.commits[pin.tests[0].file][:7]
        )
        assert at in html
        if lang == "en":
            assert not CJK.search(html)
    many = pins_render.tests_html(PINS, ["table-detach", "table-requires-grad"], lang)
    assert "<code>detach()</code>" + pins_render.LABELS[lang]["colon"] in many


def test_every_pin_has_a_line_for_each_test_and_one_line_per_test():
    lines: dict[str, int] = {}
    for pin in PINS.pins.values():
        for test in pin.tests:
            assert isinstance(test.line, int) and test.line > 0, f"{pin.id}: {test} has no line"
            assert lines.setdefault(str(test), test.line) == test.line, f"{test}: two lines"


def test_device_tests_are_named_as_they_run():
    """instantiate_device_type_tests makes TestXCPU::test_y_cpu; the template never runs."""
    for pin in PINS.pins.values():
        for test in pin.tests:
            if "DeviceType" in test.cls:
                assert test.cls.endswith("CPU") and test.name.endswith("_cpu"), f"{pin.id}: {test}"


@pytest.mark.parametrize("pin_id", sorted(PINS.pins))
def test_every_pin_names_evidence_that_its_page_embeds_and_that_asserts(pin_id):
    """A pin cannot outlive its evidence: the section exists, the page shows it in
    every language, and it asserts (assert, or raise AssertionError when a call
    that should raise does not)."""
    pin = PINS.pins[pin_id]
    path, section = sections.split_evidence(pin.evidence)
    file = ROOT / path
    assert path.startswith("snippets/") and file.is_file(), f"{pin_id}: {path}"
    assert section in sections.names(file.read_text(encoding="utf-8")), f"{pin_id}: {pin.evidence}"
    target = path.removeprefix("snippets/")
    for lang in pages.LANGS:
        embedded = {(inc.file, inc.section) for inc in pages.includes(pages.text(lang, pin.page))}
        assert (target, section) in embedded, (
            f"{pin_id}: docs/{lang}/{pin.page} does not show {target}:{section}"
        )
    assert sections.assert_sources(file, section, raises=True), f"{pin_id}: {pin.evidence} asserts nothing"


def test_the_partial_pins_say_which_part_the_tests_pin():
    """Issue 25: five pins cited tests that pin only part of what the page says."""
    cited = {pid: {t.name for t in pin.tests} for pid, pin in PINS.pins.items()}
    assert cited["mark-non-differentiable"] == {"test_mark_non_differentiable_mixed"}
    assert "test_autograd_inplace_view_of_view" not in cited["no-grad-views"]
    for pid in ("no-grad-views", "detach-inplace-saved-output", "counter-hooks", "inference-rules"):
        only = PINS.pins[pid].only
        assert only and set(only) == set(pages.LANGS), pid
        assert not CJK.search(only["en"]) and CJK.search(only["zh"]), pid
        for lang in pages.LANGS:
            html = pins_render.tests_html(PINS, [pid], lang)
            assert pins_render.LABELS[lang]["only"].split("{")[0] in html, (pid, lang)
    assert PINS.pins["mark-non-differentiable"].only is None


def _write(tmp_path: Path, pins: list[dict]) -> Path:
    data = yaml.safe_load(pp.DATA.read_text(encoding="utf-8"))
    data["pins"] = pins
    path = tmp_path / "upstream-tests.yml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return path


def _line(path: Path, text: str) -> int:
    return next(n for n, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in ln)


DETACH = "test/test_autograd.py::TestAutograd::test_detach"
BASE = {
    "id": "x",
    "page": "internals/comparison.md",
    "evidence": "snippets/internals/comparison/no_grad_views.py:views",
    "claim": "x",
    "tests": [
        {
            "test": "test/test_autograd.py::TestAutograd::test_detach",
            "line": PINS.pins["detach-flags"].tests[0].line,
        }
    ],
}


def test_a_test_not_found_at_the_commit_fails_naming_the_pin(tmp_path):
    bad = {
        **BASE,
        "id": "made-up",
        "tests": [{"test": "test/test_autograd.py::TestAutograd::test_no_such_thing", "line": 1}],
    }
    path = _write(tmp_path, [bad])
    with pytest.raises(
        pp.PinError,
        match=rf"upstream-tests.yml:{_line(path, 'id: made-up')}, entry made-up: .*test_no_such_thing",
    ):
        pp.load(path)


def test_bad_entries_fail_loudly(tmp_path):
    detach = BASE["tests"][0]
    cases = [
        ({**BASE, "colour": "red"}, "unknown"),
        ({**BASE, "page": "nowhere.md"}, "does not exist"),
        ({**BASE, "tests": [{"test": "test_detach", "line": 1}]}, "<file>::<Class>::<test>"),
        (
            {**BASE, "tests": [{"test": "test/test_autograd.py::TestAutograd::test_detach"}]},
            "missing field(s) ['line']",
        ),
        ({**BASE, "tests": [{"test": "test/other.py::T::test_detach", "line": 1}]}, "no commit"),
        ({**BASE, "evidence": "snippets/internals/comparison/no_grad_views.py"}, "evidence must read"),
    ]
    for entry, message in cases:
        with pytest.raises(pp.PinError, match=re.escape(message)):
            pp.load(_write(tmp_path, [entry]))
    with pytest.raises(pp.PinError, match="twice"):
        pp.load(_write(tmp_path, [BASE, BASE]))
    other = {**BASE, "id": "y", "tests": [{**detach, "line": detach["line"] + 1}]}
    # one test at two lines: the one that differs from the lines read at the commit is named
    with pytest.raises(pp.PinError, match=r"entry y: .*test_detach is at line .* but its def is at line"):
        pp.load(_write(tmp_path, [BASE, other]))


@pytest.mark.parametrize(
    ("evidence", "message"),
    [
        (
            "snippets/internals/comparison/nothing.py:views",
            "evidence file snippets/internals/comparison/nothing.py does not exist; ",
        ),
        ("snippets/internals/comparison/no_grad_views.py:gone", "evidence section 'gone' is not in "),
        (
            "snippets/internals/version-counter/version_counter.py:hooks",
            "does not embed internals/version-counter/version_counter.py:hooks",
        ),
    ],
)
def test_evidence_that_does_not_hold_names_file_line_entry_and_fix(tmp_path, evidence, message):
    path = _write(tmp_path, [{**BASE, "evidence": evidence}])
    with pytest.raises(pp.PinError) as err:
        pp.load(path)
    text = str(err.value)
    assert text.startswith(f"{rel(path)}:{_line(path, 'id: x')}, entry x: "), text
    assert message in text and "; " in text, text


def test_evidence_with_no_assert_fails(tmp_path):
    """A copy of the repository's page and snippet, with the asserts taken out."""
    root = tmp_path / "repo"
    snippet = root / "snippets/internals/comparison/no_grad_views.py"
    snippet.parent.mkdir(parents=True)
    code = (ROOT / "snippets/internals/comparison/no_grad_views.py").read_text(encoding="utf-8")
    code = re.sub(r"^( *)assert .*$", r"\1pass", code, flags=re.M).replace("raise AssertionError", "print")
    code = re.sub(r"^# raises:.*\n", "", code, flags=re.M)
    snippet.write_text(code, "utf-8")
    for lang in pages.LANGS:
        page = root / "docs" / lang / "internals/comparison.md"
        page.parent.mkdir(parents=True)
        page.write_text(pages.text(lang, "internals/comparison.md"), "utf-8")
    with pytest.raises(
        pp.PinError, match=r"entry x: .*no_grad_views.py:views asserts nothing .*; assert the claim"
    ):
        pp.load(_write(tmp_path, [BASE]), root=root)


def test_a_raises_header_is_the_check_of_its_section(tmp_path):
    """``# raises: NAME Type`` is checked by the runner on every run, so it counts as
    the section's check (and only that section's)."""
    snippet = tmp_path / "s.py"
    snippet.write_text(
        '# raises: boom RuntimeError\n"""Doc."""\n\nimport torch\n\n'
        "# --8<-- [start:calm]\nx = 1\n# --8<-- [end:calm]\n"
        "# --8<-- [start:boom]\ntorch.ones(1).view(2)\n# --8<-- [end:boom]\n",
        "utf-8",
    )
    assert sections.assert_sources(snippet, "boom") == ["# raises: boom RuntimeError"]
    assert sections.assert_sources(snippet, "calm", raises=True) == []
    below = tmp_path / "below.py"  # a header may sit below the module docstring too
    below.write_text(
        snippet.read_text("utf-8").replace(
            '# raises: boom RuntimeError\n"""Doc."""', '"""Doc."""\n# raises: boom RuntimeError'
        ),
        "utf-8",
    )
    assert sections.assert_sources(below, "boom") == ["# raises: boom RuntimeError"]


def _page(src_uri: str):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri))


def test_the_sources_list_links_the_tests_and_rejects_a_wrong_page():
    """A page's Sources (tools/build/machinery.py, written before the build) name the
    heading a marker sits under and link its tests; a pin placed on another page than
    its data says, or an unknown id, stops the build, naming the page."""
    from tools.build.machinery import sources

    md = "## Views { #views }\n\n<!-- pytorch-pins: detach-base-views -->\n"
    out = sources(md, "zh", "internals/what-detach-does.md")
    assert 'href="#views"' in out and "test_detach_base" in out and "pytorch-pins" not in out
    with pytest.raises(ToolError, match="another page"):
        sources(md, "en", "internals/comparison.md")
    with pytest.raises(ToolError, match="unknown pin"):
        sources("<!-- pytorch-pins: nope -->", "en", "index.md")


def test_a_line_that_differs_from_the_digest_names_the_line_read(tmp_path):
    """A pin's line is compared with data/upstream-defs.yml, the lines read at the commit."""
    wrong = {**BASE, "tests": [{**BASE["tests"][0], "line": BASE["tests"][0]["line"] + 6}]}
    path = _write(tmp_path, [wrong])
    right = BASE["tests"][0]["line"]
    with pytest.raises(pp.PinError, match=rf"its def is at line {right} of .*use line {right}"):
        pp.load(path)


def test_a_test_missing_from_the_digest_says_how_to_add_it(tmp_path):
    defs = tmp_path / "defs.yml"
    defs.write_text("test/test_autograd.py@5c322af10e52e4d236104ceefd542f34e6dcf20a: {}\n", encoding="utf-8")
    with pytest.raises(pp.PinError, match=r"has no line in data/upstream-defs.yml .*find its def, and add"):
        pp.load(_write(tmp_path, [BASE]), defs_path=defs)


def test_every_line_of_the_data_is_in_the_digest():
    defs = pp.known_defs()
    data = pp.load()
    for pin in data.pins.values():
        for t in pin.tests:
            assert defs[f"{t.file}@{data.commits[t.file]}"][f"{t.cls}::{t.name}"] == t.line


def test_the_data_holds_no_script_and_no_placeholder():
    """What the build refuses in data prose (tools.pages.checks.prose_problems)."""
    from tools.core.repo import ROOT
    from tools.pages.checks import prose_problems

    problems = prose_problems(ROOT / "data" / "upstream-tests.yml")
    assert not problems, "\n".join(problems)
