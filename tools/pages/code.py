"""A page's code as data: its headings and Python blocks, in page order.

Each block is what the copy button gives (includes expanded, annotation markers
such as ``# (1)!`` removed), with the snippet files it includes, the recorded
output of those sections (``snippets/**/*.out``) and, when it cannot run on this
machine (it needs CUDA, or the page marks it
``<!--pytest.mark.skip(reason="...")-->``), why. A missing record, or one that
lacks a section the page shows, raises ``PageCodeError`` with the file named.
Each block also keeps the code as shown (``shown``: includes expanded, nothing
wrapped), which the page checks read.

The one reader of a page's code: tools/downloads/ writes the reader script and
notebook from it, tests/support/codeblocks.py runs the pages' blocks with it.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from tools.core import sections
from tools.core.errors import ToolError
from tools.core.memo import per_build
from tools.core.repo import cuda_available, rel
from tools.pages import parse as pages
from tools.pages.expand import expand
from tools.snippets import stamp as record_stamp
from tools.snippets.records import REFRESH_HINT
from tools.snippets.source import DEFAULT_TIMEOUT, Snippet, parse
from tools.snippets.worker import TRIGGERED

_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.+?)(?:\s*\{[^}]*\})?\s*$")
_ANNOTATION = re.compile(r"[ \t]*#\s*\(\d+\)!\s*$")
_MARK = re.compile(r"^\s*<!--\s*(?P<mark>pytest\.mark\.[^>]*?)\s*-->\s*$")
_SKIP_REASON = re.compile(r"pytest\.mark\.skip\(\s*reason\s*=\s*(['\"])(?P<reason>.+)\1\s*\)")


class PageCodeError(ToolError, RuntimeError):
    """A page's code cannot be read; the message names the file and what to do."""


PAGE_TIMEOUT_CAP = 300  # seconds for one page's code; the longest (distributed) takes ~40 s


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Block:
    number: int  # 1-based among the page's Python blocks
    line: int  # 1-based line of the page where the block's fence opens
    sources: list[tuple[Path, str | None]]  # (snippet file, section) of each include
    code: str  # what runs: the copy button's code, declared errors caught (as_run)
    shown: str = ""  # what the page shows: includes expanded, nothing wrapped
    skip: tuple[str, str] | None = None  # (kind, reason) when commented out
    output: str = ""  # recorded stdout of the included sections
    needs_fresh_interpreter: bool = False  # a snippet with `# runner: subprocess`
    timeout: int = DEFAULT_TIMEOUT

    @property
    def title(self) -> str:
        return ", ".join(rel(path) + (f":{section}" if section else "") for path, section in self.sources)


@dataclass
class PageCode:
    lang: str
    page: Path
    title: str
    items: list[Heading | Block] = field(default_factory=list)

    @property
    def blocks(self) -> list[Block]:
        return [i for i in self.items if isinstance(i, Block)]

    @property
    def stem(self) -> str:
        """File name of the downloads, without suffix: the page's own name."""
        p = self.page.with_suffix("")
        return p.parent.name if p.name == "index" and p.parent != Path() else p.name

    @property
    def needs_fresh_interpreter(self) -> bool:
        return any(b.needs_fresh_interpreter for b in self.blocks if not b.skip)

    @property
    def timeout(self) -> int:
        """Each snippet file's timeout counted once, however many of its sections the
        page shows, capped at PAGE_TIMEOUT_CAP (or the largest single timeout): a hang
        costs minutes, not CI's hour."""
        per_file: dict[Path, int] = {}
        for b in self.blocks:
            if not b.skip:
                for path, _ in b.sources:
                    if path.suffix == ".py":
                        per_file[path] = max(per_file.get(path, 0), b.timeout)
        cap = max(PAGE_TIMEOUT_CAP, *per_file.values(), 0)
        return max(min(sum(per_file.values()), cap), DEFAULT_TIMEOUT)


@per_build
def _snippet(path: Path) -> Snippet:
    return parse(path)


def reader_code(code: str) -> str:
    """The block as the copy button gives it: annotation markers removed, no
    trailing spaces."""
    lines = [_ANNOTATION.sub("", line).rstrip() for line in code.splitlines()]
    return "\n".join(lines).strip("\n") + "\n"


def record_sections(path: Path) -> dict[str | None, str]:
    """What each section of a record holds (that chunk's output); None: all the
    output, section markers and the code stamp left out."""
    _, text = record_stamp.split(path.read_text(encoding="utf-8"))
    chunks = sections.split(text, rel(path))
    out: dict[str | None, str] = {c.name: c.code for c in chunks if c.name}
    out[None] = "".join(c.code for c in chunks)
    return out


def _recorded_output(path: Path, section: str | None, where: str) -> str:
    snippet = _snippet(path)
    record = snippet.record_path
    hint = REFRESH_HINT.format(path=snippet.rel)
    if not record.is_file():
        raise PageCodeError(
            f"{where}: {snippet.rel} has no recorded output ({rel(record)}), so the "
            f"page's notebook cannot carry its output. Create it with: {hint}"
        )
    stale = record_stamp.stale_reason(snippet.path, record)
    if stale:
        raise PageCodeError(f"{where}: the record {rel(record)} is stale: {stale}. Refresh it with: {hint}")
    sections = record_sections(record)
    names = {c.name for c in snippet.chunks if c.name}
    recorded = {k for k in sections if k}
    if names != recorded:
        raise PageCodeError(
            f"{where}: the record {rel(record)} is stale: its sections "
            f"{sorted(recorded)} differ from the sections of {snippet.rel} {sorted(names)}. "
            f"Refresh it with: {hint}"
        )
    return sections[section]


def page_code(lang: str, page: Path | str, cuda: bool | None = None, md: str | None = None) -> PageCode:
    """Headings and Python blocks of a page, in page order (``md``: the page's text,
    read from docs/<lang>/<page> when not given)."""
    page = Path(page)
    where = f"docs/{lang}/{page.as_posix()}"
    md = pages.text(lang, page) if md is None else md
    cuda = cuda_available() if cuda is None else cuda
    lines = md.splitlines()
    title = ""
    result = PageCode(lang, page, "")
    marks: list[str] = []
    number = 0
    done = 0  # lines before this one are handled

    def prose(chunk: list[str]) -> None:
        nonlocal title, marks
        for line in chunk:
            mark = _MARK.match(line)
            if mark:
                marks.append(mark["mark"])
            elif line.strip():
                heading = _HEADING.match(line)
                if heading:
                    text = heading["text"].strip()
                    if not title and len(heading["level"]) == 1:
                        title = text
                    result.items.append(Heading(len(heading["level"]), text))
                marks = []

    for i, j, fence in pages.walk_fences(lines):
        prose(lines[done:i])
        indent = fence["indent"]
        body = [s[len(indent) :] if s.startswith(indent) else s.lstrip() for s in lines[i + 1 : j]]
        if pages.is_python(fence["info"]):
            number += 1
            result.items.append(_block(number, i + 1, "\n".join(body), marks, cuda, where))
        marks = []
        done = j + 1
    prose(lines[done:])
    result.title = title or page.with_suffix("").as_posix()
    return result


def as_run(code: str, kind: str, name: str) -> str:
    """A section declared ``# raises:`` or ``# warns:``, as a reader's script runs it:
    it prints the error or the warnings as the page's output shows them, and goes on."""
    inner = textwrap.indent(code.rstrip("\n"), "    ")
    if kind == "raises":
        return (
            f"try:\n{inner}\nexcept {name} as err:  # the page shows this error\n"
            '    print(f"{type(err).__name__}: {err}")\n'
        )
    return (
        "import re\nimport warnings\n\nwith warnings.catch_warnings(record=True) as caught:\n"
        f'    warnings.simplefilter("always")\n{inner}\n'
        "for w in caught:  # the page shows these warnings, without torch's C++ location\n"
        f"    text = re.sub({TRIGGERED!r}, '', str(w.message))\n"
        '    print(f"{w.category.__name__}: {text}")\n'
    )


def _expand_running(body: str) -> str:
    """The block's includes expanded; declared sections wrapped by ``as_run``."""
    out = []
    for line in body.splitlines():
        incs = pages.includes(line)
        for inc in incs:  # set-up the page leaves out (``# setup:``) still runs
            if inc.path.suffix == ".py" and _snippet(inc.path).setup_code(inc.section):
                setup = _snippet(inc.path).setup_code(inc.section).strip("\n")
                out.append(f"# set-up the page does not show ({rel(inc.path)})\n{setup}\n\n")
        declared = [_snippet(i.path).expects.get(i.section or "") for i in incs if i.path.suffix == ".py"]
        if not incs or not any(declared):
            out.append(expand(line))
            continue
        out.append(as_run(expand(line), *declared[0]))
    return "\n".join(out)


def _block(number: int, line: int, body: str, marks: list[str], cuda: bool, page: str) -> Block:
    where = f"{page}:{line}"
    incs = pages.includes(body)
    sources = [(inc.path, inc.section) for inc in incs]
    from pymdownx.snippets import SnippetMissingError

    try:
        code = reader_code(_expand_running(body))
        shown = reader_code(expand(body))
    except SnippetMissingError as err:
        from tools.pages.checks import include_problems  # names the file and its sections

        why = "; ".join(include_problems(body, where)) or f"{where}: {err}"
        raise PageCodeError(f"cannot expand a code block's includes: {why}") from None
    block = Block(number, line, sources, code, shown=shown)
    skips = [m for m in marks if m.startswith("pytest.mark.skip")]
    for mark in skips:
        m = _SKIP_REASON.fullmatch(mark)
        if not m:
            raise PageCodeError(
                f"{where}: block {number} is skipped without a reason; "
                'write <!--pytest.mark.skip(reason="why")-->'
            )
        block.skip = ("skip", m["reason"])
    outputs = []
    for path, section in sources:
        if path.suffix != ".py":
            continue
        snippet = _snippet(path)
        block.timeout = max(block.timeout, snippet.timeout)
        if snippet.runner == "subprocess":
            block.needs_fresh_interpreter = True
        if snippet.needs_cuda and not cuda:
            block.skip = block.skip or ("cuda", "")
            continue
        if block.skip:
            continue
        outputs.append(_recorded_output(path, section, where))
    block.output = "".join(outputs)
    return block


def pages_with_code(lang: str) -> list[Path]:
    """The pages of ``lang`` that show Python code (the pages with downloads)."""
    return [
        p
        for p in pages.pages(lang)
        if any(pages.is_python(info) for _, info, _ in pages.fences(pages.text(lang, p)))
    ]
