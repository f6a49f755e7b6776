"""The torch-version results (data/torch-versions/) and what the pages make of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.versions import differences as why
from tools.versions import notes as vn
from tools.versions import results as tv
from tools.versions import run as torch_versions_run

FILES = sorted(tv.DATA.glob("*.json"), key=lambda p: tv.version_key(p.stem))
CURRENT = {tv.rel(p): tv.file_hash(p) for p in tv.snippet_paths()}
RERUN = "run `make test-versions TORCH={v}` (see noxfile.py)"


def test_there_are_results_for_the_pinned_torch_and_others():
    versions = [p.stem for p in FILES]
    assert tv.REFERENCE in versions, f"no {tv.REFERENCE}.json in {tv.rel(tv.DATA)}: " + RERUN.format(
        v=tv.REFERENCE
    )
    assert len(versions) >= 5, f"results for {versions} only; the site promises five releases or more"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_result_file_shape(path: Path):
    """The shape is data/schemas/torch-versions.schema.json's (tv.load checks it)."""
    data = tv.load(path)
    assert tv.base_version(data["torch"]) == path.stem, f"{tv.rel(path)} holds torch {data['torch']}"

    helper = data["helper_tests"]
    failures = "; ".join(f"{k}: {v}" for k, v in list(helper.get("failures", {}).items())[:3])
    assert helper.get("passed") and not helper.get("failed"), (
        f"{tv.rel(path)}: the helper's own tests failed on torch {path.stem} ({failures}). "
        "autograd_lens is installed by readers of every checked release: fix it, then "
        + RERUN.format(v=path.stem)
    )


def test_a_snippet_missing_from_a_result_file_is_reported_not_refused():
    """A new snippet has no entry until the matrix runs for it (the versions workflow, or
    `make test-versions ARGS=--merge`): its page says which releases are not yet checked,
    and `python -m tools versions summary` lists it. It does not fail `make test`."""
    for path in FILES:
        data = tv.load(path)
        missing = sorted(set(CURRENT) - set(data["snippets"]))
        assert tv.summarize(data, CURRENT)["missing"] == len(missing)
        assert set(tv.missing_snippets(data, CURRENT)) == set(missing)


def test_staleness_is_computed_from_the_hash():
    for path in FILES:
        data = tv.load(path)
        counts = tv.summarize(data, CURRENT)
        fresh = sum(counts[k] for k in ("pass", "differs", "fails", "skipped"))
        assert counts["stale"] + fresh == len(data["snippets"])
        for name, entry in data["snippets"].items():
            assert tv.is_stale(entry, CURRENT.get(name, "")) == (entry["hash"] != CURRENT.get(name))


# -- rendering, on synthetic data ---------------------------------------------------------
SNIPPET = "snippets/internals/implementation/implementation.py"
PAGE = """# The page

Prose quoting `y.detach()           -> ['aten.detach.default']` and `aten.clone.default`.

``` python title="x"
--8<-- "internals/implementation/implementation.py:dispatch"
```

``` text title="Output"
--8<-- "internals/implementation/implementation.out:dispatch"
```

After.
"""


def _matrix(entries: dict[str, dict], classes: list[why.Difference] | None = None) -> tv.Matrix:
    runs = {}
    for version, entry in entries.items():
        runs[version] = {"snippets": {SNIPPET: entry}}
    runs = dict(sorted(runs.items(), key=lambda kv: tv.version_key(kv[0])))
    return tv.Matrix(runs, {SNIPPET: tv.file_hash(tv.ROOT / SNIPPET)}, why.Differences(classes or []))


def _class(cls: str = "wording", releases=("2.5.1",), **kw) -> why.Difference:
    text = {
        "en": "the mode sees `aten.detach.default` twice",
        "zh": "dispatch mode 看到两次 `aten.detach.default`",
    }
    return why.Difference("x", cls, tuple(releases), ((SNIPPET, "dispatch"),), kw.pop("text", text), **kw)


def _page(markdown: str, matrix: tv.Matrix, lang: str) -> str:
    """What the page shows: its version line (at its end) and its annotated Markdown."""
    return vn.version_line(markdown, matrix, lang) + "\n" + vn.annotate(markdown, matrix, lang)


def _fresh(**kw) -> dict:
    return {"hash": tv.file_hash(tv.ROOT / SNIPPET), "status": "pass", "differs": {}, **kw}


OTHER = (
    "y.detach()           -> ['aten.detach.default', 'aten.detach.default']\n"
    "y.clone()            -> ['aten.clone.default']\n"
)


def test_page_line_note_and_span_marks():
    matrix = _matrix(
        {
            "2.5.1": _fresh(differs={"dispatch": OTHER}),
            "2.13.0": _fresh(),
            "2.14.1": _fresh(),
        },
        [_class()],
    )
    for lang in ("en", "zh"):
        out = _page(PAGE, matrix, lang)
        assert out.count('class="torch-versions"><small>') == 1
        line = next(ln for ln in out.splitlines() if "torch-versions" in ln)
        assert "<strong>2.13.0</strong>" in line and "<sup" not in line and "✗" not in line
        # the line says in words what differs: the class and its sentence
        said = "2.5: the mode sees" if lang == "en" else "2.5：dispatch mode 看到两次"
        assert said in line and "<code>aten.detach.default</code>" in line
        assert said in out.split('??? note other-releases "', 1)[1]  # and in the note under the block
        assert '??? note other-releases "' in out and '=== "torch 2.5.1"' in out
        # the other release's output is shown as what differs from the page's
        assert "+ y.detach()           -> ['aten.detach.default', 'aten.detach.default']" in out
        assert "- y.detach() -> ['aten.detach.default']" in out and "``` diff" in out
        # the span quoting the 2.13 op log is marked at the end of its sentence, not
        # inside the quote; the clone op (printed by all) is not
        assert "`aten.clone.default`.<sup" in out and out.count("<sup") == 1
        assert ("since torch 2.13.0" if lang == "en" else "torch 2.13.0 起") in out
        assert ("2.13.0 and later" if lang == "en" else "2.13.0 及更新") in out
    assert _page(PAGE, _matrix({"2.13.0": _fresh(), "2.14.1": _fresh()}), "en").count("??? note") == 0


def test_a_stale_result_is_never_shown_as_a_pass():
    matrix = _matrix({"2.5.1": {**_fresh(), "hash": "0" * 64}, "2.13.0": _fresh()})
    out = _page(PAGE, matrix, "en")
    line = next(ln for ln in out.splitlines() if "torch-versions" in ln)
    assert "checked with torch <strong>2.13.0</strong>" in line
    assert f"Checked on torch 2.5.1 before the last change to <code>{SNIPPET}</code>" in line
    assert "??? note" not in out


def test_a_failure_is_shown_with_its_line():
    failing = _fresh(
        status="assert-failed",
        line=36,
        code="assert logs == {",
        message="AssertionError",
        differs={"dispatch": OTHER},
    )
    behaviour = _class(
        "behaviour", since="2.7.1", text={"en": "the op log has two entries.", "zh": "记录里有两项。"}
    )
    out = _page(PAGE, _matrix({"2.5.1": failing, "2.13.0": _fresh()}, [behaviour]), "en")
    assert "✗" not in out
    said = "On 2.5, PyTorch behaves differently: the op log has two entries (as shown here from torch 2.7)."
    assert said in out
    assert "On torch 2.5.1 this block fails at line 36" in out


def test_a_result_classed_environment_is_never_published():
    broken = _fresh(status="error", line=3, code="import jax", message="ModuleNotFoundError: jax", differs={})
    env = why.Difference("no-jax", "environment", ("2.5.1",), ((SNIPPET, "dispatch"),), missing="jax")
    out = _page(PAGE, _matrix({"2.5.1": broken, "2.13.0": _fresh()}, [env]), "en")
    line = next(ln for ln in out.splitlines() if "torch-versions" in ln)
    assert "Not yet checked on torch 2.5.1" in line and "??? note" not in out and "jax" not in out


def test_a_difference_without_a_class_names_block_release_and_what_to_do(monkeypatch):
    from tools.core.errors import ToolError
    from tools.versions import hook

    matrix = _matrix({"2.5.1": _fresh(differs={"dispatch": OTHER}), "2.13.0": _fresh()})
    [problem] = why.unclassified(matrix, matrix.differences)
    assert f"{SNIPPET}:dispatch prints another output on torch 2.5.1" in problem
    assert "data/torch-versions/differences.yml gives no class" in problem
    assert "make test-versions TORCH=2.5.1 ARGS=--merge" in problem
    monkeypatch.setattr(hook, "load_matrix", lambda: matrix)
    with pytest.raises(ToolError, match="without a class"):
        hook.load_results(None)  # the build refuses it too
    # a class covering a block that no longer differs is reported too
    stale_class = _matrix({"2.5.1": _fresh(), "2.13.0": _fresh()}, [_class()])
    wrong = why.mismatches(stale_class, stale_class.differences)
    assert any("no longer differs on torch 2.5.1" in p for p in wrong)


# -- the classes of the real results (data/torch-versions/differences.yml) -----------------
MATRIX = tv.load_matrix()


def test_every_difference_in_the_results_has_a_class():
    missing = why.unclassified(MATRIX, MATRIX.differences)
    assert not missing, "\n".join(missing)


def test_every_class_matches_the_results():
    wrong = why.mismatches(MATRIX, MATRIX.differences)
    assert not wrong, "\n".join(wrong)


def test_no_result_is_classed_environment():
    """A venv that lacked a package is our fault, not PyTorch's: re-run that release."""
    env = why.environment(MATRIX.differences)
    assert not env, "\n".join(env)


def test_release_ranges_read_as_the_checked_releases():
    checked = ["2.4.1", "2.5.1", "2.7.1", "2.10.0", "2.13.0", "2.14.1", "2.15.0"]
    assert why.runs({"2.4.1", "2.5.1", "2.7.1", "2.10.0"}, checked) == ["2.4–2.10"]
    assert why.runs({"2.4.1", "2.14.1", "2.15.0"}, checked) == ["2.4", "2.14–2.15"]


# -- the seal: a result edited by hand is refused ----------------------------------------
def test_a_result_edited_by_hand_from_failing_to_passing_is_refused(tmp_path: Path):
    import json

    from tools.core.data import DataError

    source = tv.DATA / "2.4.1.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    name = next(n for n, e in data["snippets"].items() if e["status"] in tv.FAILED)
    entry = data["snippets"][name]
    for key in ("line", "code", "message", "not_reached"):
        entry.pop(key, None)
    entry.update(status="pass", differs={})  # what a hand edit to "passing" looks like
    folder = tmp_path / "torch-versions"
    folder.mkdir()
    bad = folder / source.name
    bad.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with pytest.raises(DataError) as err:
        tv.load(bad)
    assert f"2.4.1.json, entry {name}" in str(err.value)
    assert "make test-versions TORCH=2.4.1 ARGS=--merge" in str(err.value)
    with pytest.raises(DataError):
        tv.load_matrix(folder)  # the pages (the build) refuse it too
    assert tv.ROOT / name in tv.stale_or_missing(bad)  # and --merge re-runs it


# -- the runner, on a throwaway snippet -----------------------------------------------------
def test_runner_keeps_partial_output_and_the_failing_line(tmp_path: Path):
    from tools.snippets.runner import ForkServer

    snippet = tmp_path / "bad.py"
    snippet.write_text(
        "# --8<-- [start:one]\nprint('one')\n# --8<-- [end:one]\n"
        "# --8<-- [start:two]\nprint('two')\nassert 1 == 2\n# --8<-- [end:two]\n"
        "# --8<-- [start:three]\nprint('three')\n# --8<-- [end:three]\n"
    )
    (tmp_path / "bad.out").write_text(
        "# --8<-- [start:one]\none\n# --8<-- [end:one]\n"
        "# --8<-- [start:two]\n2\n# --8<-- [end:two]\n"
        "# --8<-- [start:three]\nthree\n# --8<-- [end:three]\n"
    )
    server = ForkServer()
    try:
        entry = torch_versions_run.run_snippet(snippet, server, cuda=False)
    finally:
        server.close()
    assert entry["status"] == "assert-failed"
    assert entry["seal"] == tv.seal(entry)  # only the runner writes a seal
    assert (entry["line"], entry["code"]) == (6, "assert 1 == 2")
    assert entry["differs"] == {"two": "two\n"}
    assert entry["not_reached"] == ["three"]


def test_a_lone_identifier_is_not_a_quote():
    records = {("s.py", "x"): "which is output 0\nof Exp, is at version 1; True\n"}
    assert vn._quote("the tensor (output 0 of ", "Exp", records) == "0 of Exp"
    assert vn._quote("it prints ", "True", records) is None
    assert vn._quote("", "output 0 of Exp", records) == "output 0 of Exp"
    assert vn._quote("", "output 0 of ExpBackward0", records) is None


BADGE = re.compile(r'`(?P<span>[^`\n]+)`<sup class="torch-versions">')


def test_a_badge_marks_a_quoted_output_never_an_api_name():
    """`torch.no_grad()` or a variable `a` exist in every release: a badge after one
    would claim a history that never happened (only quoted outputs get one)."""
    from tools.versions import notes

    matrix = tv.load_matrix()
    badged = []
    for lang in ("zh", "en"):
        for page in sorted((tv.ROOT / "docs" / lang).rglob("*.md")):
            marked = notes.annotate(page.read_text(encoding="utf-8"), matrix, lang)
            badged += [(page.relative_to(tv.ROOT).as_posix(), m["span"]) for m in BADGE.finditer(marked)]
    names = [(page, span) for page, span in badged if notes.is_api_name(span)]
    assert not names, f"badges on API names or identifiers: {names}"


def test_the_name_rule_tells_names_from_quotes():
    from tools.versions.notes import is_api_name

    for name in ("a", "torch.no_grad()", "torch.inference_mode()", "detach().clone()", "x.grad"):
        assert is_api_name(name), name
    for quote in ("Exp", "output 0 of Exp", "Can't call numpy()", "requires_grad=True)"):
        assert not is_api_name(quote), quote


def test_a_run_in_which_a_snippet_lacks_a_package_fails():
    """An environment failure is ours, not PyTorch's: the run says so and fails."""
    entry = {"status": "error", "message": "ModuleNotFoundError: No module named 'jax'"}
    with pytest.raises(SystemExit, match="lacks a package"):
        torch_versions_run._report_differences("2.7.1", {"snippets": {"snippets/x.py": entry}})
    absent_api = {"status": "error", "message": "ImportError: cannot import name 'fully_shard' from 'torch'"}
    torch_versions_run._report_differences("2.5.1", {"snippets": {"snippets/x.py": absent_api}})


def test_a_release_that_prints_to_stderr_differs_from_the_record(tmp_path, fork_server):
    """The record rule for the matrix: what a release prints to stderr (and the page
    neither shows nor explains) is a difference of the section that printed it."""
    from tools.versions import run as version_run

    snippet = tmp_path / "warns.py"
    snippet.write_text(
        "import warnings\n\n"
        "# --8<-- [start:a]\nprint(1)\n"
        'warnings.warn("torch.jit.script is deprecated", FutureWarning)\n'
        "# --8<-- [end:a]\n",
        encoding="utf-8",
    )
    snippet.with_suffix(".out").write_text("# --8<-- [start:a]\n1\n# --8<-- [end:a]\n", encoding="utf-8")
    entry = version_run._run_snippet(snippet, fork_server, cuda=False)
    assert entry["status"] == "pass"
    assert entry["differs"]["a"].endswith(
        "1\n[printed to stderr]\nFutureWarning: torch.jit.script is deprecated\n"
    ), entry["differs"]
    explained = tmp_path / "explained.py"
    explained.write_text("# stderr: a worker's own warning\n" + snippet.read_text(encoding="utf-8"))
    explained.with_suffix(".out").write_text(snippet.with_suffix(".out").read_text(encoding="utf-8"))
    assert version_run._run_snippet(explained, fork_server, cuda=False)["differs"] == {}


def test_every_since_names_the_first_checked_release_that_behaves_so():
    """A "since" note can only name a release that was checked, with the release before
    it checked too and behaving otherwise (issue 35): `since` is the checked release
    right after the newest one the entry covers."""
    import noxfile

    checked = sorted(noxfile.TORCH_RELEASES, key=lambda v: tuple(int(x) for x in v.split(".")))
    wrong = []
    for d in why.load().entries:
        if d.until:  # a change after the pin: `until` is the checked release before the oldest covered
            oldest = min(d.releases, key=checked.index)
            before = checked[checked.index(oldest) - 1] if checked.index(oldest) > 0 else None
            if d.until != before:
                wrong.append(f"{d.id}: until {d.until}, but the checked release before {oldest} is {before}")
            continue
        if not d.since:
            continue
        newest = max(d.releases, key=checked.index)
        after = checked[checked.index(newest) + 1] if checked.index(newest) + 1 < len(checked) else None
        if d.since != after:
            wrong.append(f"{d.id}: since {d.since}, but the first checked release after {newest} is {after}")
    assert not wrong, "data/torch-versions/differences.yml:\n" + "\n".join(wrong)
