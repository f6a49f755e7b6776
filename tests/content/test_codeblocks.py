"""Each page's code, as a reader sees it: includes expanded, every Python block run
top to bottom in one interpreter, as if pasted in order.

A block that cannot run that way carries a marker just above it, with its reason:
``<!--pytest.mark.skip(reason="...")-->``. The zh and en pages embed the same snippets
in the same order (test_pages checks it), so the zh pages are run.
"""

from __future__ import annotations

import difflib

import pytest

from tools.downloads import files as downloads
from tools.downloads import model as downloads_data
from tools.downloads import run as page_script_run
from tools.pages import parse as pages
from tools.snippets import records
from tools.snippets.source import SnippetError, parse

from ..support.failures import ARTIFACTS, fail_on

# Kept under test-artifacts/ so that a failure names a file that still exists.
PAGE_SCRIPTS = ARTIFACTS / "page-code"


def _page_params():
    """Every zh page; those that start processes (a subprocess-runner snippet) are slow."""
    for page in pages.pages("zh"):
        spawns = any(
            inc.path.suffix == ".py" and inc.path.is_file() and parse(inc.path).runner == "subprocess"
            for inc in pages.includes(pages.text("zh", page))
        )
        yield pytest.param(page, id=str(page), marks=[pytest.mark.slow] if spawns else [])


@pytest.mark.parametrize("page", list(_page_params()))
def test_page_code_runs_top_to_bottom(page, fork_server):
    """Runs the page's downloadable script (tools/downloads/files.py) with
    tools/downloads/run.py: the very file a reader gets; what it prints must be
    the recorded outputs of its blocks."""
    code = fail_on(downloads_data.DownloadError, downloads_data.page_code, "zh", page)
    if not code.blocks:
        pytest.skip("no Python blocks on this page")
    PAGE_SCRIPTS.mkdir(parents=True, exist_ok=True)
    script = PAGE_SCRIPTS / (str(page).replace("/", "__").replace(".md", ".py"))
    script.write_text(downloads.script(code), encoding="utf-8")
    try:
        out = page_script_run.run_script(script, code, fork_server)
    except SnippetError as err:
        pytest.fail(
            f"docs/zh/{page}: the page's code fails when run top to bottom ({script}).\n"
            + (_snippet_problems(code, fork_server) or str(err)),
            pytrace=False,
        )
    expected = page_script_run.expected_stdout(code)
    got = page_script_run.normalise_output(out)
    if got != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                got.splitlines(keepends=True),
                "recorded outputs of the blocks",
                "the page's script",
            )
        )
        pytest.fail(
            f"docs/zh/{page}: run top to bottom, the page's code prints something else than "
            "the recorded outputs of its blocks.\n"
            + (
                _snippet_problems(code, fork_server)
                or "Each snippet alone prints its record: an order dependence between blocks "
                f"(state one block leaves for the next, such as the random generator):\n{diff}"
            ),
            pytrace=False,
        )


def _snippet_problems(code, fork_server) -> str:
    """Each of the page's snippets checked alone against its record (the snippet file,
    the diff and the refresh command); empty when they all print their records."""
    snippets = sorted({path for block in code.blocks for path, _ in block.sources if path.suffix == ".py"})
    found = []
    for path in snippets:
        try:
            records.check(path, fork_server)
        except SnippetError as err:
            found.append(str(err))
    return "\n\n".join(found)
