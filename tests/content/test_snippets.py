"""Every snippet runs, asserts what its page claims, and prints exactly its record."""

from __future__ import annotations

import ast
import re

import pytest

from tools.core import sections
from tools.core.errors import ToolError
from tools.core.repo import SNIPPETS, rel
from tools.pages import parse as pages
from tools.pages.code import page_code
from tools.snippets import records
from tools.snippets.source import RECORD_SUFFIX, SnippetError, all_snippets, parse

from ..support.failures import fail_on
from ..support.verdicts import SNIPPET_CHECK_CODE, code_files, snippet_inputs

ALL = all_snippets()


def _params(select, gpu=True):
    out = []
    for path in ALL:
        snippet = parse(path)
        if not select(snippet):
            continue
        marks = [pytest.mark.gpu] if snippet.needs_cuda and gpu else []
        out.append(pytest.param(path, marks=marks, id=rel(path).removeprefix("snippets/")))
    return out


def _page_running_all_of(path) -> str | None:
    """The zh page whose code blocks (tests/support/codeblocks.py) run every line of ``path`` and check
    every section's output against this record, or None.

    True when each section is included by that page and nothing outside the sections
    but comments and the docstring."""
    text = path.read_text(encoding="utf-8")
    chunks = sections.split(text, rel(path))
    outside = "".join(c.code for c in chunks if c.name is None)
    if any(not isinstance(n, ast.Expr) for n in ast.parse(outside).body):
        return None
    shown = {c.name for c in chunks if c.name}
    for owner in pages.owner_pages(path):
        md = pages.DOCS / "zh" / owner
        if not md.is_file():
            continue
        # a block the page script comments out (a skip marker) runs there nowhere
        try:
            run = [b for b in page_code("zh", owner).blocks if not b.skip]
        except ToolError:
            return None  # e.g. a stale record: run the snippet here (other tests name the record)
        included = {section for b in run for p, section in b.sources if p == path}
        if shown <= included:
            return f"docs/zh/{owner}"
    return None


# A snippet that its page shows whole is run by the page's code-block items, as part of the page's
# script, and each of its sections' output compared with this record (on a mismatch that
# test re-checks the snippet alone, for the diff and the refresh command). Running it
# here too would run every snippet twice; what no page shows whole, and the CUDA
# snippets (commented out of the scripts without a GPU), run here.
def _run_here(snippet) -> bool:
    return snippet.needs_cuda or _page_running_all_of(snippet.path) is None


CHECK_CODE = code_files(*SNIPPET_CHECK_CODE)


@pytest.mark.parametrize("path", _params(lambda s: s.runner == "fork" and _run_here(s)))
def test_record_matches_fresh_run(path, fork_server, verdict):
    if verdict.reuse("snippet", CHECK_CODE, snippet_inputs(path)):
        return
    fail_on(SnippetError, records.check, path, fork_server)


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(lambda s: s.runner == "subprocess" and _run_here(s)))
def test_record_matches_fresh_run_subprocess(path, verdict):
    if verdict.reuse("snippet-subprocess", CHECK_CODE, snippet_inputs(path)):
        return
    fail_on(SnippetError, records.check, path)


@pytest.mark.parametrize("path", _params(lambda s: s.needs_cuda and s.cpu_smoke))
def test_cuda_snippet_runs_tiny_on_cpu(path, fork_server, verdict):
    """CUDA snippets that support it run at a tiny size on CPU, so they cannot rot."""
    if verdict.reuse("snippet-smoke", CHECK_CODE, snippet_inputs(path)):
        return
    fail_on(SnippetError, records.fresh, path, fork_server, env={"SNIPPET_SMOKE": "1"})


def test_every_record_carries_a_current_stamp():
    """The stamp covers the snippet, the repository files it read and the record's own
    text, and only ``record`` writes it after its checks: a hand edit, or a change to the
    helper or the data behind a record, fails here (and in the build)."""
    from tools.snippets import stamp

    stale = []
    for path in ALL:
        record = path.with_suffix(RECORD_SUFFIX)
        if record.is_file():
            reason = stamp.stale_reason(path, record)
            if reason:
                stale.append(f"{rel(record)}: {reason}")
    hint = records.REFRESH_HINT.format(path="<snippet>")
    assert not stale, "Records that are not the output of their code now:\n" + "\n".join(stale) + f"\n{hint}"


def test_records_have_snippets():
    orphans = [rel(p) for p in SNIPPETS.rglob(f"*{RECORD_SUFFIX}") if not p.with_suffix(".py").is_file()]
    assert not orphans, f"Records without a snippet (delete them): {orphans}"


def _known_attribute(name: str) -> bool:
    import builtins

    import numpy
    import torch

    owners = (
        torch,
        torch.Tensor,
        torch.nn,
        torch.nn.Module,
        torch.cuda,
        torch.autograd,
        numpy,
        numpy.ndarray,
        str,
        bytes,
        list,
        dict,
        BaseException,
        type,
        builtins,
    )
    return any(hasattr(owner, name) for owner in owners)


@pytest.mark.parametrize("path", _params(lambda s: s.needs_cuda and not s.cpu_smoke, gpu=False))
def test_cuda_only_snippet_is_sound_without_a_gpu(path):
    """Without CUDA a CUDA-only snippet cannot run, but what does not need the GPU is
    checked here in the normal suite: it compiles, and every attribute it uses exists
    on torch, torch.Tensor, numpy or the builtins (a typo such as `.numpy_()` or a
    renamed API fails here, not months later on a GPU machine)."""
    import ast

    import torch

    source = path.read_text(encoding="utf-8")
    tree = fail_on(
        SyntaxError, ast.parse, source, filename=rel(path), prefix=f"{rel(path)} does not compile: "
    )
    stored = [n for n in ast.walk(tree) if isinstance(getattr(n, "ctx", None), ast.Store)]
    defined = {getattr(n, "id", None) or getattr(n, "attr", None) for n in stored}
    unknown = sorted(
        {
            f"line {n.lineno}: .{n.attr}"
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and n.attr not in defined and not _known_attribute(n.attr)
        }
    )
    assert not unknown, (
        f"{rel(path)} uses attributes that torch {torch.__version__} does not have "
        f"(a typo or a renamed API?): {unknown}"
    )


def test_records_fit_the_text_column():
    """record wraps long lines at spaces; what is still wider has no space to break at."""
    wide = [
        f"{rel(p)}:{no}: {len(line)} characters"
        for p in sorted(SNIPPETS.rglob(f"*{RECORD_SUFFIX}"))
        for no, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > records.WIDTH
        and not line.startswith(("# recorded from code", "# inputs:"))  # the stamp, not shown
        and not re.fullmatch(r"https?://\S+", line)  # a link torch prints: nothing to break at
    ]
    assert not wide, (
        f"Recorded lines wider than {records.WIDTH} characters (the text column): print them "
        f"shorter, then re-record (make outputs): {wide[:10]}"
    )
