"""Each page's code, as a reader sees it: includes expanded, every Python block run
top to bottom in one interpreter, as if pasted in order.

A block that cannot run that way carries a marker just above it, with its reason:
``<!--pytest.mark.skip(reason="...")-->``. The zh and en pages embed the same snippets
in the same order (test_pages checks it), so the zh pages are run.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from tools import pages
from tools.page_code import reader_code
from tools.repo import cuda_available
from tools.snippet_records import fresh
from tools.snippet_source import DEFAULT_TIMEOUT, SnippetError, all_snippets, parse

_SKIP = re.compile(r"pytest\.mark\.skip\(\s*reason\s*=\s*(['\"]).+\1\s*\)")


def _cuda_only() -> set[Path]:
    if cuda_available():
        return set()
    return {p.resolve() for p in all_snippets() if parse(p).needs_cuda}


@pytest.mark.parametrize("page", pages.pages("zh"), ids=str)
def test_page_code_runs_top_to_bottom(page, fork_server, tmp_path):
    blocks = reader_code(pages.text("zh", page), drop_files=_cuda_only())
    if not blocks:
        pytest.skip("no Python blocks on this page")
    parts = []
    for number, code, marks in blocks:
        if any(m.startswith("pytest.mark.skip") for m in marks):
            assert any(_SKIP.fullmatch(m) for m in marks), (
                f"docs/zh/{page}: block {number} is skipped without a reason; "
                'write <!--pytest.mark.skip(reason="why")-->'
            )
            continue
        parts.append(f"# --8<-- [start:block-{number}]\n{code.rstrip()}\n# --8<-- [end:block-{number}]\n")
    script = tmp_path / (str(page).replace("/", "__").replace(".md", "") + "_reader.py")
    header = "".join(
        f"# {k}: {v}\n" for k, v in _headers(page).items()
    )
    script.write_text(header + "\n".join(parts), encoding="utf-8")
    try:
        fresh(script, fork_server if "runner" not in _headers(page) else None)
    except SnippetError as err:
        pytest.fail(f"docs/zh/{page}: the page's code fails when run top to bottom.\n{err}", pytrace=False)


def _headers(page) -> dict[str, str]:
    """Carry runner/timeout needs of the page's snippets over to the combined script."""
    out: dict[str, str] = {}
    total = 0
    for inc in pages.includes(pages.text("zh", page)):
        if inc.path.suffix != ".py" or not inc.path.is_file():
            continue
        snippet = parse(inc.path)
        total += snippet.timeout
        if snippet.runner == "subprocess":
            out["runner"] = "subprocess"
    out["timeout"] = str(max(total, DEFAULT_TIMEOUT))
    return out
