"""The fact-check data: every verdict is backed by an embedded, executed snippet that
asserts it, and the build hook rejects bad entries loudly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tools import fact_check_data as data
from tools import fact_check_hook as hook
from tools import fact_check_table as table
from tools import pages, sections
from tools.repo import CJK, ROOT

CLAIMS = data.load_claims()
MARKER = re.compile(r"verdict:\s*(?P<id>s\d{3}-\d{2})\s+(?P<verdict>true|false|misleading|unverifiable)\b")


def _markers(path: Path) -> set[tuple[str, str]]:
    return _markers_in_text(path.read_text(encoding="utf-8"))


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
def test_evidence_exists_runs_and_asserts_the_verdict(claim):
    path, section = data.split_evidence(claim["evidence"])
    file = ROOT / path
    assert file.is_file(), f"{claim['id']}: evidence {path} does not exist"
    if path.startswith("snippets/"):
        # Snippets are executed by tests/test_snippets.py; here: embedded by a page,
        # with a record, so the suite runs it and a reader sees it.
        assert file.resolve() in _embedded_files(), f"{claim['id']}: {path} is embedded by no page"
        assert file.with_suffix(".out").is_file(), f"{claim['id']}: {path} has no recorded output"
    marker = (claim["id"], claim["verdict"])
    found = _markers(file)
    assert marker in found, (
        f"{claim['id']}: {path} must carry '# verdict: {claim['id']} {claim['verdict']}' next to "
        f"the assert that settles it; it has {sorted(m for m in found if m[0] == claim['id'])}"
    )
    if section is not None:
        body = sections.body(file.read_text(encoding="utf-8"), section, path) or ""
        assert marker in _markers_in_text(body), f"{claim['id']}: the marker is not inside section {section!r}"


def _markers_in_text(text: str) -> set[tuple[str, str]]:
    return {(m["id"], m["verdict"]) for m in MARKER.finditer(text)}


def test_every_marker_sits_on_an_assert():
    loose = []
    for path in sorted((ROOT / "snippets").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if MARKER.search(line) and not line.lstrip().startswith("assert "):
                loose.append(f"{path.relative_to(ROOT)}:{n}")
    assert not loose, f"put each verdict marker on the assert that settles it: {loose}"


def test_every_marker_in_the_snippets_matches_an_entry():
    known = {(c["id"], c["verdict"]) for c in CLAIMS}
    stray = []
    for path in sorted((ROOT / "snippets").rglob("*.py")):
        for marker in _markers(path):
            if marker not in known:
                stray.append(f"{path.relative_to(ROOT)}: {marker}")
    assert not stray, f"verdict markers with no matching entry in data/fact-check.yml: {stray}"


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
    assert pages.text(lang, table.PAGE).count(hook.MARKER) == 1


def test_evidence_links_point_to_the_embedding_page():
    by_path = {data.split_evidence(c["evidence"])[0]: c for c in CLAIMS}
    for path, claim in by_path.items():
        for lang in pages.LANGS:
            link = table.evidence_link(claim, lang)
            assert path in link
            owner = path.removeprefix("snippets/").rsplit("/", 1)[0]
            if owner == "fact-check":
                assert "](#evidence-" in link, link
            else:
                assert f"]({owner}.md#" in link, link


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
    "reason_zh": "理由",
    "reason_en": "why",
    "evidence": "snippets/fact-check/graph_basics.py:dynamic",
}


def test_a_good_entry_loads(tmp_path):
    (claim,) = data.load_claims(_write(tmp_path, GOOD))
    assert claim["verdict"] == "true"
    (claim,) = data.load_claims(_write(tmp_path, {**GOOD, "verdict": False}))  # bare YAML boolean
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
        assert f"](../{c['see'][0]})" in table.render([c], lang, from_page="pitfalls/x.md")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"verdict": "mostly"}, "unknown verdict"),
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
    ],
)
def test_a_bad_entry_fails_loudly_naming_it(tmp_path, change, message):
    entry = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    with pytest.raises(data.FactCheckError) as err:
        data.load_claims(_write(tmp_path, entry))
    text = str(err.value)
    assert message in text
    assert entry.get("id", "") in text and "data/fact-check.yml" in text


def test_duplicate_ids_fail(tmp_path):
    import yaml

    p = tmp_path / "fc.yml"
    p.write_text(yaml.safe_dump({"claims": [GOOD, GOOD]}, allow_unicode=True), encoding="utf-8")
    with pytest.raises(data.FactCheckError, match="duplicate id"):
        data.load_claims(p)


def test_the_hook_raises_a_plugin_error(tmp_path, monkeypatch):
    from mkdocs.exceptions import PluginError

    monkeypatch.setattr(data, "DATA", _write(tmp_path, {**GOOD, "verdict": "nope"}))

    class _File:
        src_uri = "en/fact-check.md"

    class _Page:
        file = _File()

    with pytest.raises(PluginError, match="s000-99"):
        hook.on_page_markdown(f"# x\n\n{hook.MARKER}\n", _Page(), None, None)
    # a page without the marker is left alone and reads no data
    assert hook.on_page_markdown("# y\n", _Page(), None, None) == "# y\n"


def test_render_rejects_an_unknown_language():
    with pytest.raises(ValueError, match="lang"):
        table.render(CLAIMS, "fr")
