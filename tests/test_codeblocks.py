"""Each page's code, as a reader sees it: includes expanded, every Python block run
top to bottom in one interpreter, as if pasted in order.

A block that cannot run that way carries a marker just above it, with its reason:
``<!--pytest.mark.skip(reason="...")-->``. The zh and en pages embed the same snippets
in the same order (test_pages checks it), so the zh pages are run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools import pages
from tools.page_code import reader_code
from tools.repo import cuda_available, rel
from tools.snippet_records import fresh
from tools.snippet_source import DEFAULT_TIMEOUT, SnippetError, all_snippets, parse

from .conftest import ARTIFACTS, fail_on

PAGE_SCRIPTS = ARTIFACTS / "page-code"
PAGE_TIMEOUT_CAP = 300  # seconds for one page's code; its longest (distributed) takes ~40 s
_SKIP = re.compile(r"pytest\.mark\.skip\(\s*reason\s*=\s*(['\"]).+\1\s*\)")


def _cuda_only() -> set[Path]:
    if cuda_available():
        return set()
    return {p.resolve() for p in all_snippets() if parse(p).needs_cuda}


@pytest.mark.parametrize("page", pages.pages("zh"), ids=str)
def test_page_code_runs_top_to_bottom(page, fork_server):
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
    # Kept under test-artifacts/ so that "Reproduce with" names a file that still exists.
    PAGE_SCRIPTS.mkdir(parents=True, exist_ok=True)
    script = PAGE_SCRIPTS / (str(page).replace("/", "__").replace(".md", "") + ".py")
    headers = _headers(page)
    header = "".join(f"# {k}: {v}\n" for k, v in headers.items())
    script.write_text(
        f"# The Python blocks of docs/zh/{page}, in page order (written by tests/test_codeblocks.py).\n"
        + header + "\n".join(parts),
        encoding="utf-8",
    )
    fail_on(
        SnippetError, fresh, script, fork_server if "runner" not in headers else None,
        prefix=f"docs/zh/{page}: the page's code fails when run top to bottom "
        f"(blocks are sections 'block-N' of {rel(script)}).\n",
    )


def _headers(page) -> dict[str, str]:
    """Carry runner/timeout needs of the page's snippets over to the combined script.

    The timeout is the sum of the timeouts of the page's snippet files, each counted
    once however many of its sections the page shows, and capped at PAGE_TIMEOUT_CAP
    (or the largest single timeout, if that is larger): a hang costs minutes, not CI's hour.
    """
    out: dict[str, str] = {}
    timeouts: dict[Path, int] = {}
    for inc in pages.includes(pages.text("zh", page)):
        if inc.path.suffix != ".py" or not inc.path.is_file() or inc.path in timeouts:
            continue
        snippet = parse(inc.path)
        timeouts[inc.path] = snippet.timeout
        if snippet.runner == "subprocess":
            out["runner"] = "subprocess"
    total = sum(timeouts.values())
    cap = max(PAGE_TIMEOUT_CAP, *timeouts.values(), 0)
    out["timeout"] = str(max(min(total, cap), DEFAULT_TIMEOUT))
    return out
