"""The pattern inventory: at least twenty training patterns that stop or reroute
gradients, each with its idiom as repositories write it (at most 15 lines), the
failure without it shown and asserted (or linked where the site shows it), two or
three repositories linked at a commit; the generated pages are up to date and in the
nav; a malformed entry fails naming it."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from tools.chapters.patterns import load as P
from tools.chapters.patterns import render as R
from tools.core.repo import CJK
from tools.pages import parse as pages

MODEL = P.load()
PATTERNS = MODEL.patterns


def test_at_least_twenty_patterns_on_every_page():
    assert len(PATTERNS) >= 20, f"only {len(PATTERNS)} patterns in data/patterns.yml"
    for key in MODEL.pages:
        assert MODEL.on(key), f"page {key} has no pattern"


def test_every_pattern_was_found_ten_times():
    """The chapter says only patterns with a full 10 hits of the code search were kept."""
    low = [p.id for p in PATTERNS if p.search["hits"] != 10]
    assert not low, f"patterns found fewer than 10 times: {low}; the method text says 10"


def _included(lang: str, page: str) -> list[tuple[str, str | None]]:
    return [(i.file, i.section) for i in pages.includes(pages.text(lang, page))]


@pytest.mark.parametrize("p", PATTERNS, ids=[p.id for p in PATTERNS])
def test_pattern_is_on_both_pages_with_idiom_failure_and_repositories(p):
    page = f"{P.PATTERNS_DIR}/{p.page}.md"
    shown = [s for s in (p.idiom, p.failure) if s is not None]
    for lang in pages.LANGS:
        text = pages.text(lang, page)
        assert f"{{ #{p.id} }}" in text, f"docs/{lang}/{page} has no entry {p.id}"
        included = _included(lang, page)
        for s in shown:
            assert (s.include, s.name) in included, f"docs/{lang}/{page} does not embed {s.ref}"
        for r in p.repos:
            assert r.url in text, f"docs/{lang}/{page} does not link {r.url}"
    code = P.markers.named(p.idiom.file.read_text(encoding="utf-8"), p.idiom.ref)[p.idiom.name]
    assert len([line for line in code.splitlines() if line.strip()]) <= P.MAX_IDIOM_LINES
    assert p.failure is not None or p.failure_see, f"{p.id}: no failure shown or linked"
    if p.failure is not None:
        assert P.markers.assert_sources(p.failure.file, p.failure.name), f"{p.failure.ref} checks nothing"
    assert 2 <= len(p.repos) <= 3 and all(re.fullmatch(r"[0-9a-f]{40}", r.commit) for r in p.repos)


def test_texts_are_in_their_language():
    for p in PATTERNS:
        for field in (p.title, p.answer, p.failure_text):
            assert CJK.search(field["zh"]) and not CJK.search(field["en"]), f"{p.id}: {field}"


def test_generated_pages_are_up_to_date():
    bad = R.stale(MODEL)
    assert not bad, f"pattern pages differ from data/patterns.yml: {bad}\nrun: {R.WRITE_HINT}"


def test_pattern_pages_are_in_the_nav():
    listed = json.dumps(pages.mkdocs_config()["nav"])
    for page in ["index", *MODEL.pages]:
        assert f"{P.PATTERNS_DIR}/{page}.md" in listed, f"patterns/{page}.md missing from nav in mkdocs.yml"


def test_every_page_has_a_description_in_its_language():
    for path, text in R.pages(MODEL).items():
        m = re.match(r"---\ndescription: (.+)\n---\n", text)
        assert m, f"{path}: no front-matter description"
        assert bool(CJK.search(m[1])) == ("/zh/" in path.as_posix()), f"{path}: description language"


# --------------------------------------------------------------- malformed entries
def _data() -> dict:
    return yaml.safe_load(P.DATA.read_text(encoding="utf-8"))


def _entry(data: dict, pid: str) -> dict:
    return next(e for e in data["patterns"] if e["id"] == pid)


def _set(key, value):
    def change(e):
        e[key] = value

    return change


def _drop(*keys):
    def change(e):
        for key in keys:
            e.pop(key, None)

    return change


MALFORMED = {
    "unknown page": ("td-target", _set("page", "misc"), "unknown page 'misc'"),
    "short commit": (
        "td-target",
        _set("repos", [{"repo": "a/b", "path": "x.py", "line": 1, "commit": "fe8d8a0"}] * 2),
        "full 40-character commit hash",
    ),
    "one repository": ("td-target", lambda e: e.update(repos=e["repos"][:1]), "two or three repositories"),
    "the same repository twice": (
        "td-target",
        lambda e: e.update(repos=[e["repos"][0], e["repos"][0]]),
        "lists a repository twice",
    ),
    "no failure at all": (
        "td-target",
        _drop("failure", "failure_notes_zh", "failure_notes_en", "failure_see"),
        "",
    ),
    "a section of another page": (
        "td-target",
        _set("idiom", "snippets/patterns/generative/gen.py:gan-d-step"),
        "must be a section of a snippet under snippets/patterns/reinforcement-learning/",
    ),
    "missing section": (
        "td-target",
        _set("idiom", "snippets/patterns/reinforcement-learning/rl.py:nope"),
        "section 'nope' is not in",
    ),
    "notes do not match markers": ("td-target", _set("idiom_notes_en", []), "0 en note(s)"),
    "dangling failure_see": (
        "td-target",
        _set("failure_see", "scenarios/dqn-target.md#nope"),
        "has no heading { #nope }",
    ),
    "Chinese in English": ("td-target", _set("answer_en", "只把目标网络包进去"), "contains Chinese"),
    "two code spans in how": ("td-target", _set("how", "`a` and `b`"), "must be one code span"),
    "unknown field": ("td-target", _set("answer_fr", "oui"), "unknown field(s) ['answer_fr']"),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_malformed_entry_fails_naming_it(case, tmp_path):
    pid, change, message = MALFORMED[case]
    data = _data()
    change(_entry(data, pid))
    bad = tmp_path / "patterns.yml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(P.PatternError) as err:
        P.load(bad)
    assert f"entry {pid}" in str(err.value) and message in str(err.value), str(err.value)


def test_an_idiom_over_the_limit_is_rejected(monkeypatch):
    monkeypatch.setattr(P, "MAX_IDIOM_LINES", 5)
    with pytest.raises(P.PatternError, match="entry td-target: the idiom .* shows 12 lines; keep it to 5"):
        P.load()


def test_sections_out_of_page_order_are_rejected(tmp_path):
    data = _data()
    rl = [e for e in data["patterns"] if e["page"] == "reinforcement-learning"]
    others = [e for e in data["patterns"] if e["page"] != "reinforcement-learning"]
    data["patterns"] = [rl[1], rl[0], *rl[2:], *others]
    bad = tmp_path / "patterns.yml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(P.PatternError, match="page reinforcement-learning: .* another order"):
        P.load(bad)


def test_a_page_without_patterns_is_rejected(tmp_path):
    data = _data()
    data["patterns"] = [e for e in data["patterns"] if e["page"] != "sequences"]
    bad = tmp_path / "patterns.yml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(P.PatternError, match="page sequences: has no pattern"):
        P.load(bad)


def test_check_command_names_a_stale_page(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from tools.chapters.patterns import cli

    page = tmp_path / "docs" / "zh" / "patterns" / "index.md"
    monkeypatch.setattr(R, "stale", lambda model=None: [str(page)])
    result = CliRunner().invoke(cli.patterns, ["check"])
    assert result.exit_code == 1 and "index.md" in result.output and R.WRITE_HINT in result.output
