"""Every snippet runs, asserts what its page claims, and prints exactly its record."""

from __future__ import annotations

import pytest

from tools import snippet_records as records
from tools.repo import SNIPPETS, rel
from tools.snippet_source import RECORD_SUFFIX, SnippetError, all_snippets, parse

ALL = all_snippets()


def _params(select):
    out = []
    for path in ALL:
        snippet = parse(path)
        if not select(snippet):
            continue
        marks = [pytest.mark.gpu] if snippet.needs_cuda else []
        out.append(pytest.param(path, marks=marks, id=rel(path).removeprefix("snippets/")))
    return out


@pytest.mark.parametrize("path", _params(lambda s: s.runner == "fork"))
def test_record_matches_fresh_run(path, fork_server):
    try:
        records.check(path, fork_server)
    except SnippetError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(lambda s: s.runner == "subprocess"))
def test_record_matches_fresh_run_subprocess(path):
    try:
        records.check(path)
    except SnippetError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.mark.parametrize("path", _params(lambda s: s.needs_cuda and s.cpu_smoke))
def test_cuda_snippet_runs_tiny_on_cpu(path, fork_server):
    """CUDA snippets that support it run at a tiny size on CPU, so they cannot rot."""
    try:
        records.fresh(path, fork_server, env={"SNIPPET_SMOKE": "1"})
    except SnippetError as err:
        pytest.fail(str(err), pytrace=False)


def test_records_have_snippets():
    orphans = [
        rel(p)
        for p in SNIPPETS.rglob(f"*{RECORD_SUFFIX}")
        if not p.with_suffix(".py").is_file()
    ]
    assert not orphans, f"Records without a snippet (delete them): {orphans}"
