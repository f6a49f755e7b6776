"""The error chapter: every candidate message from PyTorch's source (data/errors-candidates.yml)
is answered by an entry of data/errors.yml or excused with a reason; every answered message
is raised by a recorded snippet section; the pages and search queries are fresh; a bad entry
fails naming itself."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from tools.chapters.errors import extract as X
from tools.chapters.errors import load as L
from tools.chapters.errors import render as R
from tools.core.repo import CJK
from tools.pages import parse as pages

ERRS = L.load()
MESSAGES = [(e, m) for e in ERRS.entries for m in e.messages]


def test_every_candidate_is_answered_or_excused():
    ids = {c["id"] for c in ERRS.candidates}
    assert len(ids) == len(ERRS.candidates), "candidate ids must be unique"
    assert ids == set(ERRS.answered) | set(ERRS.excused)


def test_at_least_fifty_messages_answered_with_code():
    assert len(MESSAGES) >= 50, f"only {len(MESSAGES)} messages answered"
    assert len(ERRS.answered) >= 50


def test_candidates_name_their_commit_and_cpp_comes_from_the_build():
    commits = {f["path"]: f["read_at"] for f in ERRS.files}
    for c in ERRS.candidates:
        assert c["file"] in commits, f"{c['id']}: {c['file']} is not in files:"
        if not c["file"].endswith(".py"):
            assert c.get("in_build") is True, f"{c['id']}: a C++ message comes from the binaries"
            assert c["where"] in {"call", "function", "search", "library"}
            assert (c["line"] is not None) == (c["where"] == "call"), c["id"]
            assert ("read_at" in c) == (c["where"] == "search"), c["id"]
    wheel = [f for f in ERRS.files if f["origin"] in ("wheel", "binary")]
    assert wheel and all(f["read_at"] == ERRS.torch_commit for f in wheel)


def test_the_cpp_side_covers_the_named_areas():
    """Issue 33's C++ areas each hold candidates, read from the binaries."""
    files = {c["file"] for c in ERRS.candidates}
    for area in (
        "torch/csrc/autograd/engine.cpp",
        "torch/csrc/autograd/python_function.cpp",
        "torch/csrc/autograd/custom_function.cpp",
        "torch/csrc/autograd/VariableTypeManual.cpp",
        "torch/csrc/utils/tensor_new.cpp",
        "torch/csrc/distributed/c10d/reducer.cpp",
        "aten/src/ATen/functorch/DynamicLayer.cpp",
    ):
        assert area in files, f"no candidate from {area}"


@pytest.mark.parametrize("pair", MESSAGES, ids=[f"{e.id}:{m.section}" for e, m in MESSAGES])
def test_each_answered_message_is_raised_by_its_section(pair):
    e, m = pair
    shown = R.recorded(m)
    assert L.pattern(m.text).search(shown), f"{e.id}: {m.raises} does not raise {m.text!r}"
    assert (
        shown.split(":", 1)[0] in {m.type, *[c["type"] for c in m.candidates]}
        or m.kind == "warning"
        or (shown.split(":", 1)[0].endswith("Error"))
    )


@pytest.mark.parametrize("entry", ERRS.entries, ids=[e.id for e in ERRS.entries])
def test_entry_is_bilingual_and_embedded_in_both_languages(entry):
    for field in (entry.title, entry.cause, entry.fix_text):
        assert CJK.search(field["zh"]) and not CJK.search(field["en"])
    page = f"{L.ERRORS_DIR}/{entry.group}.md"
    for lang in pages.LANGS:
        text = pages.text(lang, page)
        assert f"{{ #{entry.id} }}" in text
        included = [(i.file, i.section) for i in pages.includes(text)]
        for m in entry.messages:
            assert (R._include(m.raises, ".py").partition(":")[0], m.section) in included


def test_generated_pages_and_queries_are_up_to_date():
    bad = R.stale(ERRS)
    assert not bad, f"error pages differ from data/errors.yml: {bad}\nrun: {R.WRITE_HINT}"


def test_error_pages_are_in_the_nav():
    listed = json.dumps(pages.mkdocs_config()["nav"])
    for page in ["errors/index.md", *(f"errors/{g}.md" for g in ERRS.groups if ERRS.in_group(g))]:
        assert page in listed, f"{page} missing from nav in mkdocs.yml"


def test_the_index_lists_every_answered_message_once_per_language():
    for lang in pages.LANGS:
        text = pages.text(lang, "errors/index.md")
        for e, _ in MESSAGES:
            assert f"({e.group}.md#{e.id})" in text
        assert text.count("](") >= len(MESSAGES)


def test_search_queries_cover_every_answered_message_in_both_languages():
    data = yaml.safe_load(R.QUERIES.read_text(encoding="utf-8"))
    assert len(data) == 2 * len(MESSAGES)
    for q in data:
        page, _, anchor = q["expect"].partition("#")
        assert f"{{ #{anchor} }}" in pages.text(q["lang"], page)


# --------------------------------------------------------------- extraction
def test_python_extraction_keeps_the_fixed_text_with_placeholders():
    code = (
        "def f(x, n):\n"
        "    msg = f'bad {n} items in the list given'\n"
        "    if n: raise ValueError(msg)\n"
        "    raise RuntimeError('a ' + str(x) + ' b')\n"
        "    warnings.warn('careful %s' % x, FutureWarning)\n"
    )
    found = {c.message: c for c in X.python_messages(code, "torch/x.py")}
    assert found["bad {n} items in the list given"].type == "ValueError"
    assert "a {str(x)} b" in found
    assert found["careful {…}"].kind == "warning" and found["careful {…}"].type == "FutureWarning"


def test_cpp_extraction_reads_macros_and_their_literals():
    code = (
        'TORCH_CHECK(x.defined(), "element ", i, " of tensors does not require grad");\n'
        "TORCH_INTERNAL_ASSERT(ok);\n"
        'TORCH_WARN_ONCE("grad and param " "do not obey");\n'
    )
    found = X.cpp_messages(code, "torch/csrc/x.cpp", {})
    assert [c.message for c in found] == [
        "element {i} of tensors does not require grad",
        "(no message)",
        "grad and param do not obey",
    ]
    assert [c.kind for c in found] == ["error", "internal", "warning"]


def test_in_build_accepts_a_message_split_into_literals_and_refuses_a_changed_one():
    blob = [b"\0One \0of the differentiated Tensors appears\0cannot be modified\0"]
    assert X.in_build("One of the differentiated Tensors appears", blob)
    assert not X.in_build("Tensors provided can not be modified", blob)


def test_binary_pieces_join_with_placeholders_between_values():
    from tools.chapters.errors import binary as B

    assert B.join(["element ", " of tensors does not require grad"]) == (
        "element {…} of tensors does not require grad"
    )
    assert B.join(["Expected to mark a variable ready only once. ", "This error is caused"]) == (
        "Expected to mark a variable ready only once. This error is caused"
    )
    assert B._order([" is out of bounds", "Index "]) == ["Index ", " is out of bounds"]
    assert not B.is_piece(b"operator()") and not B.is_piece(b"/__w/pytorch/pytorch/x.cpp")
    assert B.is_piece(b"a leaf Variable that requires grad is being used in an in-place operation.")


def test_the_binary_locates_a_message_at_its_line():
    """The line the binary gives for a check in a wheel header is the header's line at
    the pinned commit (the wheel's copy has one added first line)."""
    from tools.chapters.errors import binary as B

    cand = next(
        c for c in ERRS.candidates if c["message"].startswith("a leaf Variable that requires grad is being")
    )
    assert cand["file"] == "torch/csrc/autograd/VariableTypeUtils.h" and cand["where"] == "call"
    header = (X.torch_root() / "include" / cand["file"]).read_text(encoding="utf-8").splitlines()
    assert header[0].startswith("#if !defined(TORCH_STABLE_ONLY)")
    assert "TORCH_CHECK" in header[cand["line"]]  # 1-based line + the added first line
    assert B.VOCABULARY.search(cand["message"])


# --------------------------------------------------------------- malformed data
def _copy(tmp_path, change) -> tuple:
    data = yaml.safe_load(L.DATA.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "errors.yml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_a_message_that_is_no_longer_a_candidate_fails_naming_the_entry(tmp_path):
    def change(d):
        d["entries"][0]["messages"][0]["text"] = "this message does not exist anywhere"

    with pytest.raises(
        L.ErrorsError, match=r"entry scalar-only: message .* is not \(or no longer\) a candidate"
    ):
        L.load(_copy(tmp_path, change))


def test_a_candidate_neither_answered_nor_excused_fails(tmp_path):
    def change(d):
        d["excused"] = [r for r in d["excused"] if r["class"] != "pending"]

    with pytest.raises(L.ErrorsError, match=r"neither answered nor excused"):
        L.load(_copy(tmp_path, change))


def test_a_rule_that_excuses_nothing_fails(tmp_path):
    def change(d):
        d["excused"].insert(0, {"class": "legacy", "reason": "Nothing.", "match": "^no such message at all$"})

    with pytest.raises(L.ErrorsError, match=r"excused rule 1 .* excuses no candidate"):
        L.load(_copy(tmp_path, change))


def test_a_section_that_does_not_raise_the_message_fails(tmp_path):
    def change(d):
        d["entries"][0]["messages"][0]["raises"] = (
            "snippets/errors/backward/backward_errors.py:scalar-only-fix"
        )

    with pytest.raises(L.ErrorsError, match=r"declares no '# raises"):
        L.load(_copy(tmp_path, change))


def test_stale_candidates_for_other_sources_fail(tmp_path):
    def change(d):
        d["sources"] = [*d["sources"], "torch/nothing.py"]

    with pytest.raises(L.ErrorsError, match=r"other sources"):
        L.load(_copy(tmp_path, change))


def test_queries_are_what_a_reader_pastes():
    for _, m in MESSAGES:
        q = R.query(m)
        assert re.match(r"^([A-Za-z_][\w.]*(Error|Warning|Exception)|([\w.]*\.)?Unsupported): \S", q), q
        assert len(q) <= 160
