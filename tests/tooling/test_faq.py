"""The FAQ data: real questions with sources, the most frequent answered in both
languages with embedded, recorded evidence that asserts the answer; the generated pages
are up to date; the build hook rejects a malformed entry, naming it; a pasted error
message finds its entry."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from tools.chapters.faq import cli as faq
from tools.chapters.faq import load as F
from tools.chapters.faq import render as faq_render
from tools.core.repo import CJK
from tools.pages import parse as pages

ROOT = pages.ROOT
FAQ = F.load()
QUESTIONS = FAQ.questions
ANSWERED = [q for q in QUESTIONS if q.answered]


def test_at_least_sixty_questions_and_thirty_answered():
    assert len(QUESTIONS) >= 60, f"only {len(QUESTIONS)} questions in data/questions.yml"
    assert len(ANSWERED) >= 30, f"only {len(ANSWERED)} answered questions"
    assert set(FAQ.topics) == {q.topic for q in QUESTIONS}, "a topic without questions"


def test_the_answered_questions_are_the_most_frequent():
    least_answered = min(q.count for q in ANSWERED)
    most_open = max((q.count for q in QUESTIONS if not q.answered), default=0)
    assert least_answered >= most_open, (
        f"an unanswered question was found {most_open} times, more often than an answered "
        f"one ({least_answered}): answer the most frequent first"
    )


@pytest.mark.parametrize("q", QUESTIONS, ids=[q.id for q in QUESTIONS])
def test_every_question_has_a_source_date_and_topic(q):
    assert q.source.startswith(("https://", "http://")), q.source
    assert re.fullmatch(r"\d{4}-\d{2}(-\d{2})?|undated", q.date), q.date
    assert q.topic in FAQ.topics
    assert q.asked.strip()
    assert not CJK.search(q.asked_in("en")), f"{q.id}: the English quote is untranslated"


def _embedded(page: str) -> list[tuple[str, str | None]]:
    return [(i.file, i.section) for i in pages.includes(pages.text("zh", page))]


@pytest.mark.parametrize("q", ANSWERED, ids=[q.id for q in ANSWERED])
def test_answered_entry_is_bilingual_with_embedded_recorded_asserting_evidence(q):
    assert CJK.search(q.answer["zh"]) and CJK.search(q.title["zh"]), f"{q.id}: no Chinese answer"
    assert q.answer["en"] and not CJK.search(q.answer["en"] + q.title["en"]), f"{q.id}: English"
    code = q.evidence.partition(":")[0].removeprefix("snippets/")
    record = code.removesuffix(".py") + ".out"
    page = f"faq/{q.topic}.md"
    for lang in pages.LANGS:
        included = [(i.file, i.section) for i in pages.includes(pages.text(lang, page))]
        assert (code, q.evidence_section) in included, f"docs/{lang}/{page} does not embed {q.evidence}"
        assert (record, q.evidence_section) in included, f"docs/{lang}/{page} does not show its output"
        assert f"{{ #{q.id} }}" in pages.text(lang, page), f"docs/{lang}/{page} has no entry {q.id}"
    body = F.sections(q.evidence_file)[q.evidence_section]
    assert re.search(r"^\s*assert\b", body, re.M), f"{q.evidence}: no assert"
    assert q.evidence_section in F.sections(q.evidence_file.with_suffix(".out")), (
        f"{q.evidence}: no recorded output; run .venv/bin/python -m tools snippets record "
        f"{q.evidence.partition(':')[0]}"
    )
    assert q.source in pages.text("zh", page) and q.source in pages.text("en", page), (
        f"{q.id}: the page does not link the question's source"
    )


@pytest.mark.parametrize("q", [q for q in ANSWERED if q.error], ids=lambda q: q.id)
def test_error_text_is_on_the_page_and_in_the_recorded_output(q):
    out = F.sections(q.evidence_file.with_suffix(".out"))[q.evidence_section]
    assert q.error in " ".join(out.split())
    for lang in pages.LANGS:
        assert f"`{q.error}`" in pages.text(lang, f"faq/{q.topic}.md")


def test_generated_pages_are_up_to_date():
    bad = faq_render.stale(FAQ)
    assert not bad, f"FAQ pages differ from data/questions.yml: {bad}\nrun: {faq_render.WRITE_HINT}"


def test_faq_pages_are_in_the_nav():
    config = pages.mkdocs_config()
    assert config["hooks"] == ["tools/site/hooks.py"]
    listed = json.dumps(config["nav"])
    for page in ["faq/index.md", *(f"faq/{t}.md" for t in FAQ.topics)]:
        assert page in listed, f"{page} missing from nav in mkdocs.yml"


# --------------------------------------------------------------- malformed entries
def _data() -> dict:
    return yaml.safe_load(F.DATA.read_text(encoding="utf-8"))


def _entry(data: dict, qid: str) -> dict:
    return next(e for e in data["questions"] if e["id"] == qid)


def _drop(key):
    def change(e):
        del e[key]

    return change


def _set(key, value):
    def change(e):
        e[key] = value

    return change


MALFORMED = {
    "no source": ("numpy-cuda", _drop("source"), "missing field(s) ['source']"),
    "bad source": ("numpy-cuda", _set("source", "github issue 257"), "must be a plain http(s) address"),
    "source closing a link": (
        "numpy-cuda",
        _set("source", "https://x.org/a)<img src=data:, onerror=alert(1)>"),
        "must be a plain http(s) address",
    ),
    "title with HTML": (
        "numpy-requires-grad",
        _set("title_en", "What now? <img alt='' src=data:, onerror=alert(1)>"),
        "title_en holds",
    ),
    "answer with a javascript link": (
        "numpy-requires-grad",
        _set("answer_en", 'See <a href="javascript:alert(1)">docs</a>.'),
        "answer_en holds",
    ),
    "untranslated answer": (
        "numpy-requires-grad",
        _set("answer_en", "TODO: translate."),
        "is not written yet",
    ),
    "bad date": ("numpy-cuda", _set("date", "last year"), "must be YYYY-MM-DD"),
    "unknown topic": ("numpy-cuda", _set("topic", "misc"), "unknown topic 'misc'"),
    "half an answer": ("numpy-cuda", _drop("answer_en"), "missing ['answer_en']"),
    "Chinese in English": ("numpy-cuda", _set("answer_en", "照报错说的做"), "contains Chinese characters"),
    "missing evidence file": (
        "numpy-cuda",
        _set("evidence", "snippets/faq/numpy/nope.py:numpy-cuda"),
        "does not exist",
    ),
    "missing section": (
        "numpy-cuda",
        _set("evidence", "snippets/faq/numpy/numpy_faq.py:nope"),
        "section 'nope' is not in",
    ),
    "evidence of another topic": (
        "numpy-cuda",
        _set("evidence", "snippets/faq/in-place/in_place_faq.py:leaf-inplace"),
        "must be snippets/faq/numpy/",
    ),
    "notes do not match markers": ("numpy-cuda", _set("notes_en", ["one"]), "notes_en has 1 note(s)"),
    "error text not printed": (
        "numpy-requires-grad",
        _set("error", "Can't call numpy()!"),
        "does not appear in the recorded output",
    ),
    "dangling see": (
        "numpy-cuda",
        _set("see", "scenarios/leaving-pytorch.md#nope"),
        "has no heading { #nope }",
    ),
    "untranslated quote": ("gan-detach", _drop("asked_en"), "add asked_en"),
    "dangling link in an answer": (
        "numpy-cuda",
        _set("answer_en", "See [there](#nope)."),
        "a link in answer_en: docs/zh/faq/numpy.md has no heading { #nope }",
    ),
    "unknown field": ("numpy-cuda", _set("answer_fr", "oui"), "unknown field(s) ['answer_fr']"),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_malformed_entry_fails_naming_it(case, tmp_path):
    qid, change, message = MALFORMED[case]
    data = _data()
    change(_entry(data, qid))
    bad = tmp_path / "questions.yml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(F.FaqError) as err:
        F.load(bad)
    assert f"entry {qid}" in str(err.value) and message in str(err.value), str(err.value)


def test_an_assert_free_evidence_section_is_rejected(tmp_path, monkeypatch):
    snippet = tmp_path / "snippets" / "faq" / "numpy" / "x.py"
    snippet.parent.mkdir(parents=True)
    snippet.write_text("# --8<-- [start:s]\nprint(1)\n# --8<-- [end:s]\n", encoding="utf-8")
    snippet.with_suffix(".out").write_text("# --8<-- [start:s]\n1\n# --8<-- [end:s]\n", encoding="utf-8")
    monkeypatch.setattr(F, "ROOT", tmp_path)
    data = _data()
    e = _entry(data, "numpy-cuda")
    e.update(evidence="snippets/faq/numpy/x.py:s", notes_zh=[], notes_en=[])
    data["questions"] = [e]
    data["topics"] = {"numpy": data["topics"]["numpy"]}
    bad = tmp_path / "questions.yml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(F.FaqError, match="entry numpy-cuda: evidence .* has no assert"):
        F.load(bad)


def test_generating_the_pages_fails_on_a_bad_entry(tmp_path, monkeypatch):
    """What the build runs first (tools/build/generate.py) stops at a bad entry, named."""
    from tools.core.errors import ToolError

    data = _data()
    _entry(data, "ste")["see"] = "nowhere.md#x"
    bad = tmp_path / "questions.yml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    monkeypatch.setattr(F, "DATA", bad)
    monkeypatch.setattr(F.load, "__defaults__", (bad,))
    with pytest.raises(ToolError, match="entry ste: see: docs/zh/nowhere.md does not exist"):
        faq_render.write()


def test_join_lines_leaves_no_space_inside_chinese():
    assert F.join_lines("先 `.cpu()`；张量\n还需要梯度时，\n再加") == "先 `.cpu()`；张量还需要梯度时，再加"
    assert F.join_lines("two\nlines") == "two lines"


def test_cli_rejects_a_bad_argument():
    from click.testing import CliRunner

    result = CliRunner().invoke(faq.faq, ["publish"])
    assert result.exit_code == 2 and "No such command 'publish'" in result.output


def test_an_error_with_backticks_stays_one_code_span():
    from tools.chapters.faq.render import code_span

    assert code_span("plain") == "`plain`"
    assert code_span("use `x.clone()` instead") == "``use `x.clone()` instead``"
    assert code_span("`x` ends") == "`` `x` ends ``"


def test_a_link_to_an_faq_page_not_yet_written_takes_its_title_from_the_data(monkeypatch):
    # `faq write` renders every page before writing any: a new topic's page
    # does not exist yet when another entry's see: links to it.
    from tools.chapters.faq import render

    def no_file(lang, page):
        raise AssertionError(f"read docs/{lang}/{page}")

    monkeypatch.setattr(render.page_files, "title", no_file)
    topics = F.load().topics
    topic = next(iter(topics))
    assert render.page_title("en", f"faq/{topic}.md") == topics[topic]["en"]


def test_a_title_of_a_missing_page_names_it():
    from tools.core.errors import ToolError
    from tools.pages.parse import title

    with pytest.raises(ToolError, match=r"docs/en/nowhere/page\.md does not exist"):
        title("en", "nowhere/page.md")


def test_the_data_holds_no_script_and_no_placeholder():
    """What the build refuses in data prose (tools.pages.checks.prose_problems)."""
    from tools.core.repo import ROOT
    from tools.pages.checks import prose_problems

    problems = prose_problems(ROOT / "data" / "questions.yml")
    assert not problems, "\n".join(problems)
