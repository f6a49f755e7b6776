"""Every data file matches its schema (data/schemas/); a file that breaks one fails
naming the file, the line and the entry. YAML 1.1's no/yes/on/off are never booleans."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.chapters.faq import load as faq
from tools.chapters.glossary import load as glossary
from tools.chapters.pins import load as pins
from tools.core import data
from tools.core.repo import ROOT
from tools.versions import results

SCHEMAS = sorted((ROOT / "data" / "schemas").glob("*.schema.json"))
NOT_DATA = {"schemas", "search-words.zh.txt", "pytorch-test-names.txt"}  # made by a tool, or a list


@pytest.mark.parametrize("schema", SCHEMAS, ids=[p.stem for p in SCHEMAS])
def test_every_schema_is_a_valid_schema(schema: Path):
    data._validator(schema.name)  # check_schema raises on a malformed schema


def test_every_data_file_has_a_schema():
    schemas = {p.name.removesuffix(".schema.json") for p in SCHEMAS}
    files = {p.name.removesuffix(".yml") for p in (ROOT / "data").iterdir()} - NOT_DATA
    assert files <= schemas, f"data files without a schema in data/schemas/: {sorted(files - schemas)}"


def _bad_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (ROOT / "data" / name).read_text(encoding="utf-8")
    assert old in text, f"{name} no longer holds {old!r}: update this test"
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_a_bad_question_names_file_line_and_entry(tmp_path):
    bad = _bad_copy(tmp_path, "questions.yml", "    date: undated\n", "    date: someday\n")
    with pytest.raises(faq.FaqError) as err:
        faq.load(bad)
    line = _line_of(bad, "date: someday")
    assert f"questions.yml:{line}, entry numpy-requires-grad: date: 'someday'" in str(err.value)


def test_an_unknown_pin_field_names_file_line_and_entry(tmp_path):
    bad = _bad_copy(
        tmp_path, "upstream-tests.yml", "  - id: table-detach\n", "  - id: table-detach\n    colour: red\n"
    )
    with pytest.raises(pins.PinError) as err:
        pins.load(bad)
    line = _line_of(bad, "- id: table-detach")  # the entry's line: the field is not in its schema
    assert f"upstream-tests.yml:{line}, entry table-detach: unknown field(s) ['colour']" in str(err.value)


def test_no_stays_a_string(tmp_path):
    """YAML 1.1 made `subject: no` the boolean False (rendered as 'False')."""
    bad = _bad_copy(tmp_path, "upstream-tests.yml", 'subject: "`detach()`"', "subject: no")
    assert data.read_yaml(bad).data["pins"][0]["subject"] == "no"
    assert pins.load(bad).pins["table-detach"].subject == "no"


def test_a_bad_result_file_names_the_file_and_the_snippet(tmp_path):
    source = sorted((ROOT / "data" / "torch-versions").glob("*.json"))[0]
    content = json.loads(source.read_text(encoding="utf-8"))
    name = next(iter(content["snippets"]))
    content["snippets"][name]["status"] = "passed, honestly"
    bad = tmp_path / source.name
    bad.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(data.DataError) as err:
        results.load(bad)
    assert f"{source.name}, at snippets/{name}/status: status: unknown value 'passed, honestly'" in str(
        err.value
    )


def test_a_bad_glossary_row_names_file_line_and_entry(tmp_path, monkeypatch):
    page = tmp_path / "docs" / "zh" / "glossary.md"
    page.parent.mkdir(parents=True)
    row = 'id="autograd">autograd</span> |'
    text = (ROOT / "docs" / "zh" / "glossary.md").read_text(encoding="utf-8")
    page.write_text(text.replace(f"{row} 自动微分（autograd） |", f"{row}  |"), encoding="utf-8")
    monkeypatch.setattr(glossary, "ROOT", tmp_path)
    with pytest.raises(glossary.GlossaryError) as err:
        glossary.terms("zh")
    assert f"glossary.md:{_line_of(page, row)}, entry autograd: zh:" in str(err.value)


def test_a_behaviour_class_without_its_first_release_names_file_line_and_entry(tmp_path):
    from tools.versions import differences

    (tmp_path / "torch-versions").mkdir()
    bad = _bad_copy(tmp_path, "torch-versions/differences.yml", '    since: "2.8.0"\n', "")
    with pytest.raises(differences.DifferenceError) as err:
        differences.load(bad)
    line = _line_of(bad, "- id: tensor-from-list-warning")
    expected = f"differences.yml:{line}, entry tensor-from-list-warning: missing field(s) ['since']"
    assert expected in str(err.value)
