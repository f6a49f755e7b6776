"""The fact-check data: every verdict is backed by an assert in an embedded, executed
snippet (named by the entry, not marked in the code readers see), the table reads as
prose, and the build hook rejects bad entries loudly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.chapters.factcheck import load as data
from tools.chapters.factcheck import render as table
from tools.core import sections
from tools.core.repo import CJK, ROOT, SNIPPETS, rel
from tools.pages import parse as pages

CLAIMS = data.load_claims()
# The old bookkeeping comment, "# verdict: s000-01 true", that readers saw in the code.
OLD_MARKER = re.compile(r"#\s*verdict:\s*s\d{3}-\d{2}")


def _embedded_files() -> set[Path]:
    files: set[Path] = set()
    for lang in pages.LANGS:
        for page in pages.pages(lang):
            files.update(inc.path for inc in pages.includes(pages.text(lang, page)))
    return files


def test_there_are_about_fifty_claims_from_all_three_seeds():
    assert len(CLAIMS) >= 45, f"only {len(CLAIMS)} claims in data/fact-check.yml"
    assert {c["seed"] for c in CLAIMS} == {"000", "002", "003"}
    assert set(data.VERDICTS) <= {c["verdict"] for c in CLAIMS}


@pytest.mark.parametrize("claim", CLAIMS, ids=[c["id"] for c in CLAIMS])
def test_evidence_is_embedded_recorded_and_names_its_assert(claim):
    path, _ = sections.split_evidence(claim["evidence"])
    file = ROOT / path
    assert file.is_file(), f"{claim['id']}: evidence {path} does not exist"
    if path.startswith("snippets/"):
        # Snippets are executed by tests/content/test_snippets.py; here: embedded by a page,
        # with a record, so the suite runs it and a reader sees it.
        assert file.resolve() in _embedded_files(), f"{claim['id']}: {path} is embedded by no page"
        assert file.with_suffix(".out").is_file(), f"{claim['id']}: {path} has no recorded output"
    # load_claims() found exactly one assert in the evidence section containing claim["assert"]
    assert claim["assert"].strip()


def test_a_vanished_assert_fails_naming_the_entry(tmp_path):
    snippet = tmp_path / "snippets" / "demo.py"
    snippet.parent.mkdir()
    snippet.write_text("x = 1\n# --8<-- [start:a]\nassert x == 1\n# --8<-- [end:a]\n")
    entry = {**GOOD, "evidence": "snippets/demo.py:a", "assert": "x == 1"}
    (claim,) = data.load_claims(_write(tmp_path, entry), root=tmp_path)
    assert claim["assert"] == "x == 1"
    snippet.write_text("x = 1\n# --8<-- [start:a]\nprint(x)\n# --8<-- [end:a]\n")
    with pytest.raises(data.FactCheckError) as err:
        data.load_claims(_write(tmp_path, entry), root=tmp_path)
    text = str(err.value)
    assert "s000-99" in text and "fc.yml:" in text and "no assert in" in text and "x == 1" in text
    snippet.write_text("x = 1\n# --8<-- [start:a]\nassert x == 1\nassert x == 1 and x\n# --8<-- [end:a]\n")
    with pytest.raises(data.FactCheckError, match="2 asserts .* contain 'x == 1'"):
        data.load_claims(_write(tmp_path, entry), root=tmp_path)


def test_no_verdict_bookkeeping_in_the_code_readers_see():
    left = [
        f"{rel(path)}:{n}"
        for path in sorted(SNIPPETS.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OLD_MARKER.search(line)
    ]
    assert not left, (
        "'# verdict:' comments are shown to readers; name the assert in data/fact-check.yml "
        f"('assert:' field) instead: {left}"
    )


def test_benchmark_links_and_gpu_claims():
    for c in CLAIMS:
        if "benchmark" in c:
            assert (ROOT / "docs" / "zh" / c["benchmark"]).is_file()
    # claims about GPU numbers stay unverifiable until a GPU result exists
    for c in CLAIMS:
        if c.get("gpu") and c["verdict"] == "unverifiable":
            assert "GPU" in table.render([c], "en")


@pytest.mark.parametrize("lang", pages.LANGS)
def test_rendered_table_lists_every_claim_in_its_language(lang):
    md = table.render(CLAIMS, lang)
    for c in CLAIMS:
        assert f'id="{c["id"]}"' in md
    rows = [line for line in md.splitlines() if line.startswith('| <span id="s')]
    assert len(rows) == len(CLAIMS)
    if lang == "en":
        assert not CJK.search(md), "the English table has Chinese text"
        assert "not yet measured" in md
    else:
        assert "尚未测量" in md
    # the page includes the table written before the build (tools/build/generate.py)
    assert pages.text(lang, table.PAGE).count(f'--8<-- "{lang}/fact-check/table.md"') == 1


def test_evidence_links_point_to_the_embedding_page_by_its_title():
    by_path = {sections.split_evidence(c["evidence"])[0]: c for c in CLAIMS}
    for path, claim in by_path.items():
        for lang in pages.LANGS:
            link = table.evidence_link(claim, lang)
            owner = path.removeprefix("snippets/").rsplit("/", 1)[0]
            if owner == "fact-check":
                assert "](#evidence-" in link, link
                assert {"zh": "[见下文“", "en": "” below]"}[lang] in link, link
            else:
                assert f"]({owner}.md#" in link, link
                assert f"[{table.page_title(lang, owner + '.md')}]" in link, link


@pytest.mark.parametrize("lang", pages.LANGS)
def test_the_table_shows_readers_no_bookkeeping(lang):
    """Link texts are titles: no paths, section tags or escaped characters."""
    md = table.render(CLAIMS, lang)
    link_texts = re.findall(r"\[([^\]]*)\]\(", md)
    assert link_texts
    bad = [t for t in link_texts if "/" in t or ".py" in t or ".md" in t or re.search(r"s\d{3}-\d{2}", t)]
    assert not bad, f"link texts that are paths or ids, not titles: {bad[:5]}"
    assert "snippets/" not in md and " `:" not in md
    html = _to_html(md)
    assert "\\&lt;" not in html and "\\<" not in html, "an escaped '<' shows as '\\<'"
    row = next(line for line in html.split("<tr>") if 'id="s003-14"' in line)
    assert "&lt;" in row, "s003-14 compares with '<': it must show as '<'"


def _to_html(md: str) -> str:
    import markdown

    return markdown.markdown(md, extensions=["tables", "attr_list", "md_in_html"])


def _write(tmp_path: Path, entry: dict) -> Path:
    import yaml

    p = tmp_path / "fc.yml"
    p.write_text(yaml.safe_dump({"claims": [entry]}, allow_unicode=True), encoding="utf-8")
    return p


GOOD = {
    "id": "s000-99",
    "seed": "000",
    "section": "1",
    "quote": "引文",
    "quote_en": "a quote",
    "verdict": "true",
    "reason_zh": "【正确】理由",
    "reason_en": "[true] why",
    "evidence": "snippets/fact-check/graph_basics.py:dynamic",
    "assert": "depth[3] == depth[1] + 2",
}


def test_a_good_entry_loads(tmp_path):
    (claim,) = data.load_claims(_write(tmp_path, GOOD))
    assert claim["verdict"] == "true"
    assert (claim["reason_zh"], claim["reason_en"]) == ("理由", "why")  # the lead is not shown
    false = {**GOOD, "verdict": False, "reason_zh": "【错误】理由", "reason_en": "[false] why"}
    (claim,) = data.load_claims(_write(tmp_path, false))  # bare YAML boolean
    assert claim["verdict"] == "false"
    (claim,) = data.load_claims(_write(tmp_path, {**GOOD, "see": "scenarios/gan.md"}))
    assert claim["see"] == ["scenarios/gan.md"]


@pytest.mark.parametrize("lang", pages.LANGS)
def test_see_also_links_render_relative_to_the_page(lang):
    claims = [c for c in CLAIMS if c.get("see")]
    assert claims, "some claims should point to the scenario pages that settle them too"
    for c in claims:
        row = table.render([c], lang)
        for page in c["see"]:
            assert f"]({page})" in row
        # from a folder that holds no see-also page, every link climbs one level
        assert f"](../{c['see'][0]})" in table.render([c], lang, from_page="benchmarks/x.md")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"verdict": "mostly"}, "verdict: unknown value 'mostly'"),
        ({"verdict": "misleading"}, "verdict is 'misleading', but reason_zh argues for 'true'"),
        ({"reason_en": "why"}, "reason_en must open with the verdict it argues for"),
        ({"reason_en": "[ture] why"}, "which is no verdict"),
        ({"reason_en": "[true] Backwards. It is the other way round."}, "says the opposite of the verdict"),
        ({"reason_zh": "【正确】说反了。"}, "says the opposite of the verdict"),
        ({"reason_en": None}, "missing field"),
        ({"evidence": "snippets/fact-check/nope.py"}, "does not exist"),
        ({"evidence": "snippets/fact-check/graph_basics.py:nope"}, "section 'nope'"),
        ({"evidence": "docs/zh/index.md"}, "must be a snippets/"),
        ({"benchmark": "benchmarks/nope.md"}, "benchmark page"),
        ({"see": "scenarios/nope.md"}, "see page"),
        ({"see": ["scenarios/gan"]}, "see must be"),
        ({"colour": "red"}, "unknown field"),
        ({"quote_en": "引文"}, "Chinese"),
        ({"id": "claim-1"}, "id must look like"),
        ({"assert": None}, "missing field"),
        ({"assert": "no such thing"}, "no assert in snippets/fact-check/graph_basics.py:dynamic"),
    ],
)
def test_a_bad_entry_fails_loudly_naming_it(tmp_path, change, message):
    entry = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    with pytest.raises(data.FactCheckError) as err:
        data.load_claims(_write(tmp_path, entry))
    text = str(err.value)
    assert message in text
    assert entry.get("id", "") in text and re.search(r"fc\.yml:\d+", text)  # file:line, entry


@pytest.mark.parametrize(
    "field, word, message",
    [
        ("verdict", "no", "verdict: unknown value 'no'"),
        ("verdict", "off", "verdict: unknown value 'off'"),
        ("verdict", "yes", "verdict: unknown value 'yes'"),
        ("gpu", "on", "gpu must be true or false"),
    ],
)
def test_yaml_1_1_booleans_are_not_booleans(tmp_path, field, word, message):
    """YAML 1.1 reads no/off/yes/on as booleans; here they are errors naming file and line."""
    import yaml

    text = yaml.safe_dump({"claims": [GOOD, {**GOOD, "id": "s000-98"}]}, allow_unicode=True)
    text = text.rstrip("\n") + f"\n  {field}: {word}\n"
    path = tmp_path / "fc.yml"
    path.write_text(text, encoding="utf-8")
    line = len(text.splitlines())  # the field's own line
    with pytest.raises(data.FactCheckError) as err:
        data.load_claims(path)
    assert message in str(err.value) and f"fc.yml:{line}, entry s000-98" in str(err.value)


def test_duplicate_ids_fail(tmp_path):
    import yaml

    p = tmp_path / "fc.yml"
    p.write_text(yaml.safe_dump({"claims": [GOOD, GOOD]}, allow_unicode=True), encoding="utf-8")
    with pytest.raises(data.FactCheckError, match="duplicate id"):
        data.load_claims(p)


def test_generating_the_table_stops_at_a_bad_claim(tmp_path, monkeypatch):
    """What the build runs first (tools/build/generate.py) names the bad claim."""
    from tools.build.generate import chapter_includes
    from tools.core.errors import ToolError

    monkeypatch.setattr(data, "DATA", _write(tmp_path, {**GOOD, "verdict": "nope"}))
    with pytest.raises(ToolError, match="s000-99"):
        chapter_includes("en")


def test_render_rejects_an_unknown_language():
    with pytest.raises(ValueError, match="lang"):
        table.render(CLAIMS, "fr")


def test_an_assert_inside_a_branch_cannot_settle_a_claim():
    import ast

    from tools.core.sections import branches as _branches

    tree = ast.parse(
        "import torch\n"
        "if torch.cuda.is_available():\n"
        "    assert 1 == 1\n"
        "assert 2 == 2\n"
        "if __name__ == '__main__':\n"
        "    assert 3 == 3\n"
        "try:\n"
        "    pass\n"
        "except ValueError:\n"
        "    assert 4 == 4\n"
    )
    assert _branches(tree) == {3: 2, 10: 9}


def test_the_data_holds_no_script_and_no_placeholder():
    """What the build refuses in data prose (tools.pages.checks.prose_problems)."""
    from tools.core.repo import ROOT
    from tools.pages.checks import prose_problems

    problems = prose_problems(ROOT / "data" / "fact-check.yml")
    assert not problems, "\n".join(problems)


def test_a_verdict_that_a_box_on_a_page_contradicts_is_named():
    """hook-aliases calls s003-11 a common misconception (a warning box): it cannot be true."""
    verdicts = {c["id"]: c["verdict"] for c in CLAIMS}
    assert data.citation_problems(verdicts) == []
    problems = data.citation_problems({**verdicts, "s003-11": "true"})
    assert any(
        p.startswith("docs/en/pitfalls/hook-aliases.md: the warning box") and "s003-11" in p for p in problems
    )
