"""Per-page downloads: the reader script (.py) and notebook (.ipynb) of each page.

Both are made from the page as the build renders it: every Python block in page
order, with its includes expanded and its annotation markers (``# (1)!``) removed,
which is what the copy button gives. The script is what
``tests/test_codeblocks.py`` runs, so what a reader downloads is what was tested;
the notebook carries the recorded outputs (``snippets/**/*.out``) of each block.

A block that cannot run on the machine that made the file (it needs CUDA, or the
page marks it ``<!--pytest.mark.skip(reason="...")-->``) is commented out, with the
reason above it. Outputs come from the records: a missing record, or one that lacks
a section the page shows, stops the generation with the file named.

Both files are deterministic: no timestamps, no paths of the build machine.

Usage:
    python -m tools.downloads script LANG PAGE     # print the reader script
    python -m tools.downloads notebook LANG PAGE   # print the notebook (JSON)
    python -m tools.downloads write DIR            # all downloads under DIR/<lang>/
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import pages, record_stamp, sections  # noqa: E402
from tools.page_code import expand  # noqa: E402
from tools.repo import child_env, cuda_available, rel  # noqa: E402
from tools.snippet_records import REFRESH_HINT, wrap_output  # noqa: E402
from tools.snippet_runner import ForkServer  # noqa: E402
from tools.snippet_source import DEFAULT_TIMEOUT, Snippet, SnippetError, parse  # noqa: E402

DOWNLOADS = "downloads"  # folder of the downloads in the built site

_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.+?)(?:\s*\{[^}]*\})?\s*$")
_ANNOTATION = re.compile(r"[ \t]*#\s*\(\d+\)!\s*$")
_MARK = re.compile(r"^\s*<!--\s*(?P<mark>pytest\.mark\.[^>]*?)\s*-->\s*$")
_SKIP_REASON = re.compile(r"pytest\.mark\.skip\(\s*reason\s*=\s*(['\"])(?P<reason>.+)\1\s*\)")

LABELS = {
    "zh": {
        "site": "PyTorch detach() 深度解析：{title}",
        "sep": "、",
        "intro": (
            "本页的全部 Python 代码，按页面顺序排列；本站的测试运行的正是这个文件。",
            "在一个空文件夹里运行：python {name}",
        ),
        "needs": "需要：{pkgs}（安装方法见本站“自己运行代码”一页）。",
        "nb_intro": (
            "本笔记本收录页面“{title}”的全部代码，按页面顺序排列；"
            "每个单元格下的输出是本站测试运行时记录的。"
            "需要的包：{pkgs}，安装方法见本站“自己运行代码”一页。"
        ),
        "cuda": (
            "这一段需要 CUDA。本站的测试在 CPU 上运行本文件，所以把它注释掉了。\n"
            "在有 GPU 的机器上，去掉下面各行的注释即可运行。"
        ),
        "skip": "本站测试跳过这一段：{reason}",
        "spawn": (
            "注意：本页用 `torch.multiprocessing.spawn` 启动子进程，子进程要从文件中导入 "
            "worker 函数，而笔记本里定义的函数做不到这一点，所以最后一个单元格在 Jupyter "
            "中会失败。请下载本页的 `.py` 文件，用 `python {name}` 运行。"
        ),
    },
    "en": {
        "site": "PyTorch detach() in Depth: {title}",
        "sep": ", ",
        "intro": (
            "All the Python code of this page, in page order; the site's tests run this very file.",
            "Run it in an empty folder: python {name}",
        ),
        "needs": 'Needs: {pkgs} (see "Run the code yourself" on the site for how to install).',
        "nb_intro": (
            'All the code of the page "{title}", in page order; the output under each cell '
            "was recorded when the site's tests ran it. "
            'Packages needed: {pkgs}; see "Run the code yourself" on the site for how to install them.'
        ),
        "cuda": (
            "Needs CUDA. The site's tests run this file on CPU, so this part is "
            "commented out; on a machine with a GPU, uncomment the lines below."
        ),
        "skip": "The site's tests skip this part: {reason}",
        "spawn": (
            "Note: this page starts worker processes with `torch.multiprocessing.spawn`; "
            "a child process imports the worker function from a file, which a function "
            "defined in a notebook is not, so the last cell fails under Jupyter. Download "
            "the page's `.py` file and run it with `python {name}`."
        ),
    },
}


class DownloadError(RuntimeError):
    """A download cannot be made; the message names the file and what to do."""


PAGE_TIMEOUT_CAP = 300  # seconds for one page's code; the longest (distributed) takes ~40 s


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Block:
    number: int  # 1-based among the page's Python blocks
    sources: list[tuple[Path, str | None]]  # (snippet file, section) of each include
    code: str  # what the copy button gives
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


def download_uri(lang: str, page: Path | str, suffix: str) -> str:
    """Site-relative path of a page's download, e.g. downloads/internals/x.py (zh)
    or en/downloads/internals/x.py (en)."""
    prefix = "" if lang == pages.LANGS[0] else f"{lang}/"
    return f"{prefix}{DOWNLOADS}/{Path(page).with_suffix(suffix).as_posix()}"


@cache
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


def normalise_output(text: str) -> str:
    """What a run prints, as the snippet runner records it (long lines wrapped)."""
    return wrap_output(text)


def _recorded_output(path: Path, section: str | None, where: str) -> str:
    snippet = _snippet(path)
    record = snippet.record_path
    hint = REFRESH_HINT.format(path=snippet.rel)
    if not record.is_file():
        raise DownloadError(
            f"{where}: {snippet.rel} has no recorded output ({rel(record)}), so the "
            f"page's notebook cannot carry its output. Create it with: {hint}"
        )
    stale = record_stamp.stale_reason(snippet.path, record)
    if stale:
        raise DownloadError(f"{where}: the record {rel(record)} is stale: {stale}. Refresh it with: {hint}")
    sections = record_sections(record)
    names = {c.name for c in snippet.chunks if c.name}
    recorded = {k for k in sections if k}
    if names != recorded:
        raise DownloadError(
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
            result.items.append(_block(number, "\n".join(body), marks, cuda, f"{where}:{i + 1}"))
        marks = []
        done = j + 1
    prose(lines[done:])
    result.title = title or page.with_suffix("").as_posix()
    return result


def _block(number: int, body: str, marks: list[str], cuda: bool, where: str) -> Block:
    incs = pages.includes(body)
    sources = [(inc.path, inc.section) for inc in incs]
    from pymdownx.snippets import SnippetMissingError

    try:
        code = reader_code(expand(body))
    except SnippetMissingError as err:
        raise DownloadError(f"{where}: cannot expand the block's includes: {err}") from None
    block = Block(number, sources, code)
    skips = [m for m in marks if m.startswith("pytest.mark.skip")]
    for mark in skips:
        m = _SKIP_REASON.fullmatch(mark)
        if not m:
            raise DownloadError(
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


# --------------------------------------------------------------------------- packages
_STDLIB = set(sys.stdlib_module_names)


def needed_packages(code: str) -> list[str]:
    """Top-level third-party modules a piece of code imports, torch first."""
    found: set[str] = set()
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ["torch"]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    found -= _STDLIB
    return sorted(found, key=lambda name: (name != "torch", name))


# --------------------------------------------------------------------------- the script
def _comment(text: str, width: int = 77) -> list[str]:
    out = []
    for para in text.splitlines():
        out.extend(textwrap.wrap(para, width, break_long_words=False, break_on_hyphens=False) or [""])
    return [f"# {s}".rstrip() for s in out]


def _skip_text(lang: str, skip: tuple[str, str]) -> str:
    kind, reason = skip
    return LABELS[lang]["cuda"] if kind == "cuda" else LABELS[lang]["skip"].format(reason=reason)


def script(code: PageCode) -> str:
    """The reader script: runnable as ``python <page>.py`` in an empty folder."""
    labels = LABELS[code.lang]
    name = f"{code.stem}.py"
    run_code = "".join(b.code for b in code.blocks if not b.skip)
    head = [
        labels["site"].format(title=code.title),
        *(s.format(name=name) for s in labels["intro"]),
        labels["needs"].format(pkgs=labels["sep"].join(needed_packages(run_code))),
    ]
    lines = _comment("\n".join(head))
    for item in code.items:
        if isinstance(item, Heading):
            if item.level == 1:
                continue
            lines += ["", "", "# %% [markdown]", f"# {'#' * item.level} {item.text}"]
            continue
        lines += ["", f"# %% {item.title}"]
        if item.skip:
            lines += _comment(_skip_text(code.lang, item.skip))
            lines += [f"# {s}".rstrip() for s in item.code.splitlines()]
        else:
            lines += item.code.rstrip("\n").splitlines()
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the notebook
def notebook(code: PageCode) -> str:
    """The page's notebook (nbformat 4.5) as JSON text, outputs from the records."""
    import nbformat
    from nbformat import v4

    labels = LABELS[code.lang]
    run_code = "".join(b.code for b in code.blocks if not b.skip)
    pkgs = labels["sep"].join(f"`{p}`" for p in needed_packages(run_code))
    intro = [f"# {code.title}", "", labels["nb_intro"].format(title=code.title, pkgs=pkgs)]
    if code.needs_fresh_interpreter:
        intro += ["", labels["spawn"].format(name=f"{code.stem}.py")]
    cells = [v4.new_markdown_cell("\n".join(intro), id="intro")]
    count = 0
    for n, item in enumerate(code.items):
        if isinstance(item, Heading):
            if item.level > 1:
                cells.append(v4.new_markdown_cell(f"{'#' * item.level} {item.text}", id=f"heading-{n}"))
            continue
        if item.skip:
            source = "\n".join(
                [
                    *_comment(_skip_text(code.lang, item.skip)),
                    *(f"# {s}".rstrip() for s in item.code.splitlines()),
                ]
            )
            cells.append(v4.new_code_cell(source, id=f"block-{item.number}"))
            continue
        count += 1
        outputs = [v4.new_output("stream", name="stdout", text=item.output)] if item.output else []
        cells.append(
            v4.new_code_cell(
                item.code.rstrip("\n"), id=f"block-{item.number}", execution_count=count, outputs=outputs
            )
        )
    nb = v4.new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
    )
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


# --------------------------------------------------------------------------- running
def expected_stdout(code: PageCode) -> str:
    """What the script prints (after ``normalise_output``): the recorded outputs of
    its blocks, in page order."""
    return "".join(b.output for b in code.blocks if not b.skip)


def run_script(path: Path, code: PageCode, server: ForkServer | None = None) -> str:
    """Run a reader script as a file and return its stdout; SnippetError on failure.

    With a fork server (torch already imported) unless the page needs a fresh interpreter;
    otherwise ``python <page>.py`` in an empty folder, as a reader runs it.
    """
    import subprocess
    import tempfile

    name = rel(path)
    if server is not None and not code.needs_fresh_interpreter:
        snippet = parse(path)
        snippet.timeout = code.timeout
        with tempfile.TemporaryDirectory(prefix="page-script-") as tmp:
            rc, err = server.run(snippet, Path(tmp))
            out = Path(tmp, "0.txt").read_text(encoding="utf-8") if Path(tmp, "0.txt").exists() else ""
    else:
        with tempfile.TemporaryDirectory(prefix="page-script-") as tmp:
            try:
                proc = subprocess.run(
                    [sys.executable, str(Path(path).resolve())],
                    cwd=tmp,
                    env=child_env(),
                    capture_output=True,
                    text=True,
                    timeout=code.timeout,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                raise SnippetError(f"{name} timed out after {code.timeout} s") from None
            rc, err, out = proc.returncode, proc.stderr, proc.stdout
    if rc != 0:
        tail = "\n".join(err.strip().splitlines()[-30:])
        raise SnippetError(f"{name} failed (exit {rc}):\n{tail}")
    return out


# --------------------------------------------------------------------------- all pages
def pages_with_code(lang: str) -> list[Path]:
    return [
        p
        for p in pages.pages(lang)
        if any(pages.is_python(info) for _, info, _ in pages.fences(pages.text(lang, p)))
    ]


def all_downloads(lang: str, cuda: bool = False) -> dict[str, str]:
    """uri -> text of every download of one language.

    The published files are made as on a CPU machine (CUDA-only blocks commented
    out), so every build gives the same bytes, with or without a GPU."""
    out: dict[str, str] = {}
    for page in pages_with_code(lang):
        code = page_code(lang, page, cuda)
        out[download_uri(lang, page, ".py")] = script(code)
        out[download_uri(lang, page, ".ipynb")] = notebook(code)
    return out


def main(argv: list[str]) -> int:
    if argv[:1] in (["script"], ["notebook"]) and len(argv) == 3:
        code = page_code(argv[1], Path(argv[2]))
        sys.stdout.write(script(code) if argv[0] == "script" else notebook(code))
        return 0
    if argv[:1] == ["write"] and len(argv) == 2:
        for lang in pages.LANGS:
            for uri, text in all_downloads(lang, cuda=False).items():
                path = Path(argv[1]) / lang / uri.removeprefix(f"{lang}/")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print(path)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except DownloadError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(1) from None
