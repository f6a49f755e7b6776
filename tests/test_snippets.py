"""Every snippet runs, asserts what its page claims, and prints exactly its record."""

from __future__ import annotations

import pytest

from tools import snippets as st

ALL = st.all_snippets()


def _params(select):
    out = []
    for path in ALL:
        snippet = st.parse(path)
        if not select(snippet):
            continue
        marks = [pytest.mark.gpu] if snippet.needs_cuda else []
        out.append(pytest.param(path, marks=marks, id=st.rel(path).removeprefix("snippets/")))
    return out


@pytest.mark.parametrize("path", _params(lambda s: s.runner == "fork"))
def test_record_matches_fresh_run(path, zygote):
    try:
        st.check(path, zygote)
    except st.SnippetError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(lambda s: s.runner == "subprocess"))
def test_record_matches_fresh_run_subprocess(path):
    try:
        st.check(path)
    except st.SnippetError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.mark.parametrize("path", _params(lambda s: s.needs_cuda and s.cpu_smoke))
def test_cuda_snippet_runs_tiny_on_cpu(path, zygote):
    """CUDA snippets that support it run at a tiny size on CPU, so they cannot rot."""
    try:
        st.run(path, zygote, env={"SNIPPET_SMOKE": "1"})
    except st.SnippetError as err:
        pytest.fail(str(err), pytrace=False)


def test_records_have_snippets():
    orphans = [
        st.rel(p)
        for p in st.SNIPPETS.rglob(f"*{st.RECORD_SUFFIX}")
        if not p.with_suffix(".py").is_file()
    ]
    assert not orphans, f"Records without a snippet (delete them): {orphans}"
