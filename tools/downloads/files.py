"""Per-page downloads: the reader script (.py) and notebook (.ipynb) of each page.

Both are made from the page as the build renders it (tools/pages/code.py):
every Python block in page order, with its includes expanded and its annotation
markers (``# (1)!``) removed, which is what the copy button gives. The script is
what the page's code-block items run (tests/support/codeblocks.py), so what a reader
downloads is what was tested; the notebook carries the recorded outputs
(``snippets/**/*.out``) of each block.

A block that cannot run on the machine that made the file (it needs CUDA, or the
page marks it ``<!--pytest.mark.skip(reason="...")-->``) is commented out, with the
reason above it.

Both files are deterministic: no timestamps, no paths of the build machine.
The command line is tools/downloads/cli.py; the build publishes them through
tools/downloads/hook.py.
"""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

from tools.core.i18n import UI
from tools.pages import parse as pages
from tools.pages.code import Heading, PageCode, page_code, pages_with_code

DOWNLOADS = "downloads"  # folder of the downloads in the built site

LABELS = UI["downloads.files"]


def download_uri(lang: str, page: Path | str, suffix: str) -> str:
    """Site-relative path of a page's download, e.g. downloads/internals/x.py (zh)
    or en/downloads/internals/x.py (en)."""
    prefix = "" if lang == pages.LANGS[0] else f"{lang}/"
    return f"{prefix}{DOWNLOADS}/{Path(page).with_suffix(suffix).as_posix()}"


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


# --------------------------------------------------------------------------- all pages
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
