"""The code a reader sees on a page: includes expanded, Python blocks in page order."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from tools.core.repo import ROOT, SNIPPETS
from tools.pages.parse import includes, is_python, walk_fences


@cache
def _snippet_preprocessor():
    import markdown
    from pymdownx.snippets import SnippetPreprocessor

    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={
            "pymdownx.snippets": {
                "base_path": [str(SNIPPETS), str(ROOT / "generated")],
                "check_paths": True,
                "dedent_subsections": True,
            }
        },
    )
    for proc in md.preprocessors:
        if isinstance(proc, SnippetPreprocessor):
            return proc
    raise RuntimeError("pymdownx.snippets preprocessor not found")


def expand(md: str) -> str:
    """The page with its includes expanded, exactly as pymdownx.snippets does at build."""
    return "\n".join(_snippet_preprocessor().run(md.splitlines()))


def reader_code(md: str, drop_files: set[Path] = frozenset()) -> list[tuple[int, str, list[str]]]:
    """The Python blocks a reader sees, in page order: (block number, code, marks).

    Blocks that include one of ``drop_files`` (e.g. CUDA-only snippets on a CPU machine)
    are left out. Marks are pytest-codeblocks markers such as
    ``<!--pytest.mark.skip(reason="...")-->`` written just above the block.
    """
    from pytest_codeblocks import extract_from_buffer

    lines = md.splitlines()
    kept: list[str] = []
    done = 0  # lines before this one are handled
    for i, j, m in walk_fences(lines):
        kept.extend(lines[done:i])
        block = lines[i : j + 1]
        if any(inc.path in drop_files for inc in includes("\n".join(block))):
            kept.append("")
        elif is_python(m["info"]):
            # pytest-codeblocks only collects a bare ```python fence: drop title=, annotations
            kept.extend([m["indent"] + "```python", *block[1:]])
        else:
            kept.extend(block)
        done = j + 1
    kept.extend(lines[done:])
    blocks = extract_from_buffer(io.StringIO(_dedent_fences(expand("\n".join(kept)))))
    return [(n, b.code, list(b.marks)) for n, b in enumerate(blocks, 1) if b.syntax == "python"]


def _dedent_fences(md: str) -> str:
    # Fences inside tabs/admonitions are indented; pytest-codeblocks handles indentation
    # only for the fence line itself, so strip the common indent of each block here.
    lines = md.splitlines()
    out: list[str] = []
    done = 0
    for i, j, m in walk_fences(lines):
        out.extend(lines[done:i])
        indent = m["indent"]
        if not indent:
            out.extend(lines[i : j + 1])
        else:
            out.extend(
                line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i : j + 1]
            )
        done = j + 1
    out.extend(lines[done:])
    return "\n".join(out)
