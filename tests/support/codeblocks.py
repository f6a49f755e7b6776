"""Every shown Python block of every page, as a pytest-codeblocks item.

``pytest`` collects ``docs/<lang>/**/*.md`` through this plugin (``-p`` in
pyproject.toml): each Python block a reader sees is one item of pytest-codeblocks
(``pytest_codeblocks.plugin.TestBlock``), named by its line in the page,
``docs/zh/faq/numpy.md::line 12``. Its code is the block as the copy button gives it
(includes expanded, annotation markers removed; ``tools.pages.code``), and its
expected output (pytest-codeblocks' ``expected-output``) is the recorded output of the
sections it shows. A block the page marks ``<!--pytest.mark.skip(reason="...")-->``,
or one that needs CUDA on a machine without it, is skipped with that reason.

A page's blocks are chained as a reader pastes them: one interpreter, in page order.
The chain runs once per page, through the project's snippet runner (forked from the
session's fork server, or in a fresh interpreter for a page that starts processes),
with each block's output captured on its own; the runner adds what pytest-codeblocks
alone does not check (nothing written or read that a reader cannot repeat, nothing on
stderr, a timeout with the line it hung on). Each item then compares its own block.

zh and en pages embed the same code with the same outputs (tests/content/test_pages.py),
so the two chains are one check: a pass is remembered by its inputs (the code, the
outputs, the files the snippets read, the checking code; tests/support/verdicts.py) and
the second language reuses it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pytest_codeblocks.main import CodeBlock
from pytest_codeblocks.plugin import MarkdownFile, TestBlock

from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, rel
from tools.pages import code as model
from tools.snippets import records, runner
from tools.snippets.records import wrap_output
from tools.snippets.runner import ForkServer
from tools.snippets.source import SnippetError, parse

from .failures import ARTIFACTS
from .verdicts import SNIPPET_CHECK_CODE, Verdict, code_files, note, snippet_inputs

# Kept under test-artifacts/ so that a failure names a file that still exists.
PAGE_SCRIPTS = ARTIFACTS / "page-code"
CHECK_CODE = [*code_files(*SNIPPET_CHECK_CODE, "tools/pages", "tools/downloads"), Path(__file__).resolve()]


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".md":
        return None
    try:
        lang, *rest = Path(file_path).resolve().relative_to(DOCS).parts
    except ValueError:
        return None
    if lang not in LANGS or not rest:
        return None
    return PageFile.from_parent(parent, path=file_path, lang=lang, page=Path(*rest))


class PageFile(MarkdownFile):
    """A page of docs/<lang>/: its Python blocks, each one item."""

    def __init__(self, *, lang: str, page: Path, **kwargs):
        super().__init__(**kwargs)
        self.lang, self.page = lang, page

    def collect(self):
        try:
            code = model.page_code(self.lang, self.page)
        except ToolError as err:  # a stale record, a missing section: one failing item
            yield PageProblem.from_parent(self, name="page", message=str(err))
            return
        blocks = code.blocks
        if not blocks:
            return
        chain = Chain(self.lang, self.page, code)
        for block in blocks:
            item = PageBlock.from_parent(self, name=f"line {block.line}")
            item.obj = CodeBlock(block.code, block.line, "python", expected_output=block.output)
            item.block, item.chain = block, chain
            if block.skip:
                kind, reason = block.skip
                why = "needs CUDA: torch.cuda.is_available() is False on this machine"
                item.add_marker(pytest.mark.skip(reason=why if kind == "cuda" else reason))
            yield item


class PageProblem(pytest.Item):
    def __init__(self, *, message: str, **kwargs):
        super().__init__(**kwargs)
        self.message = message

    def runtest(self):
        pytest.fail(self.message, pytrace=False)


@dataclass
class Chain:
    """One page's blocks run in one interpreter, once per test session."""

    lang: str
    page: Path
    code: model.PageCode
    outputs: dict[int, str] | None = None  # block number -> what it printed
    failure: str = ""
    failed_block: int | None = None  # the block the failure is reported on
    reused: bool = False
    results: dict[int, bool] = field(default_factory=dict)

    @property
    def running(self) -> list[model.Block]:
        return [b for b in self.code.blocks if not b.skip]

    def verdict(self) -> Verdict:
        """The chain's inputs: its code and outputs, not its page or language."""
        inputs: list[object] = []
        for block in self.running:
            inputs += [block.code, block.output]
            for path, _ in block.sources:
                if path.suffix == ".py":
                    inputs += snippet_inputs(path)
        return Verdict("page-code", CHECK_CODE, inputs)

    def ensure_run(self, server_factory) -> None:
        if self.outputs is not None or self.failure:
            return
        if self.verdict().passed_before():
            self.reused = True
            self.outputs = {b.number: b.output for b in self.running}
            return
        script = _write_script(self.lang, self.page, self.running, self.code)
        snippet = parse(script)
        server = None if self.code.needs_fresh_interpreter else server_factory()
        outcome = runner.execute(snippet, server)
        printed = {c.name: out for c, out in zip(snippet.chunks, outcome.outputs) if c.name}
        self.outputs = {}
        for block in self.running:
            out = printed.get(f"block-{block.number}")
            if out is not None:
                self.outputs[block.number] = wrap_output(out)
        if outcome.rc != 0:
            reached = [b.number for b in self.running if b.number in self.outputs]
            self.failed_block = reached[-1] if reached else self.running[0].number
            self.outputs.pop(self.failed_block, None)
            tail = "\n".join(runner.without_runner_frames(outcome.stderr)[-runner.ERROR_TAIL_LINES :])
            how = "timed out" if outcome.timed_out else f"failed (exit {outcome.rc})"
            self.failure = f"{rel(script)} {how}:\n{tail}"
        else:
            problem = runner.reader_problem(snippet, outcome)
            if problem:
                self.failed_block = self.running[0].number
                self.failure = problem

    def block_done(self, number: int, passed: bool) -> None:
        self.results[number] = passed
        if not self.reused and len(self.results) == len(self.running) and all(self.results.values()):
            self.verdict().remember()


def _write_script(lang: str, page: Path, blocks: list[model.Block], code: model.PageCode) -> Path:
    """The page's blocks as one snippet, a section per block (block-1, block-2, ...)."""
    stderr = sorted(
        {parse(p).stderr_reason for b in blocks for p, _ in b.sources if p.suffix == ".py"} - {""}
    )
    head = [
        f'"""docs/{lang}/{page.as_posix()}: its Python blocks in page order."""',
        f"# timeout: {code.timeout}",
    ]
    if code.needs_fresh_interpreter:
        head.append("# runner: subprocess")
    if stderr:
        head.append(f"# stderr: {stderr[0]}")
    body = []
    for block in blocks:
        body += [
            f"# --8<-- [start:block-{block.number}]",
            block.code.rstrip("\n"),
            f"# --8<-- [end:block-{block.number}]",
        ]
    # names no module can have (faq/numpy.md must not shadow numpy), each in its own
    # folder: the run checks its folder for files left behind, and pages run at once
    stem = f"{lang}__{page.with_suffix('').as_posix().replace('/', '__')}"
    path = PAGE_SCRIPTS / stem / f"{stem}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(head + body) + "\n", encoding="utf-8")
    return path


class PageBlock(TestBlock):
    """One shown block of a page: its output in the page's chain is its recorded output."""

    block: model.Block
    chain: Chain

    def runtest(self):
        chain = self.chain
        chain.ensure_run(lambda: shared_fork_server(self.config))
        note(self, "reused" if chain.reused else "ran")
        number = self.block.number
        where = f"docs/{chain.lang}/{chain.page.as_posix()}, line {self.block.line}"
        if number == chain.failed_block:
            chain.block_done(number, False)
            raise BlockFailure(f"{where}: the page's code fails when run top to bottom.\n{chain.failure}")
        got = (chain.outputs or {}).get(number)
        if got is None:
            chain.block_done(number, False)
            raise BlockFailure(f"{where}: not run, because an earlier block of the page failed.")
        expected = self.obj.expected_output or ""
        if got != expected:
            chain.block_done(number, False)
            diff = "".join(
                difflib.unified_diff(
                    expected.splitlines(keepends=True), got.splitlines(keepends=True), "recorded", "run"
                )
            )
            raise BlockFailure(
                f"{where}: prints something else than its recorded output.\n"
                + (
                    _snippet_problems(self.block)
                    or "Each snippet alone prints its record: an order dependence between "
                    f"blocks (state one block leaves for the next):\n{diff}"
                )
            )
        chain.block_done(number, True)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.block.line - 1, self.name


class BlockFailure(AssertionError):
    pass


def _snippet_problems(block: model.Block) -> str:
    """Each snippet of the block checked alone against its record (the snippet file,
    the diff and the refresh command); empty when they all print their records."""
    found = []
    for path in sorted({p for p, _ in block.sources if p.suffix == ".py"}):
        try:
            records.check(path)
        except SnippetError as err:
            found.append(str(err))
    return "\n\n".join(found)


_PAGE_ITEM = re.compile(r"docs/[^/]+/(?P<page>.+?\.md)::")


@pytest.hookimpl(optionalhook=True)  # known only while xdist is loaded (not with -p no:xdist)
def pytest_xdist_make_scheduler(config, log):
    """Under ``-n``: all blocks of a page, in both languages, go to one worker, in page
    order (the chain runs once there, and the second language reuses its pass); every
    other test is scheduled alone, as ``--dist load`` does. (xdist's own ``loadgroup``
    marks do not group with pytest 9, whose items ignore the node-id suffix xdist sets.)"""
    from xdist.scheduler import LoadScopeScheduling

    if config.getvalue("dist") not in ("load", "loadgroup", "loadscope"):
        return None

    class PageScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            m = _PAGE_ITEM.match(nodeid)
            return f"page:{m['page']}" if m else nodeid

    return PageScheduling(config, log)


def shared_fork_server(config) -> ForkServer:
    """The test process's one fork server (torch imported once), started on first use."""
    server = getattr(config, "_snippet_fork_server", None)
    if server is None:
        from tools.snippets.records import VARIANT

        server = ForkServer(env=VARIANT)  # as another machine: 2 threads, another day
        config._snippet_fork_server = server
        config.add_cleanup(server.close)
    return server
