"""Read the Markdown pages: includes, figures, anchors, and the code a reader sees."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGS = ("zh", "en")

_INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+["'](?P<target>[^"']+)["']\s*$""", re.M)
_FIGURE = re.compile(r"assets/figures/(?P<path>[^)\s\"']+?)\.(?P<lang>zh|en)\.svg")
_ANCHOR = re.compile(r"\{\s*#(?P<id>[-\w]+)\s*\}")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")


@dataclass(frozen=True)
class Include:
    file: str  # path as written, relative to snippets/ (or the repo root)
    section: str | None

    @property
    def path(self) -> Path:
        for base in (ROOT / "snippets", ROOT):
            if (base / self.file).is_file():
                return (base / self.file).resolve()
        return (ROOT / "snippets" / self.file).resolve()


def pages(lang: str) -> list[Path]:
    """Pages of one language, relative to docs/<lang>/."""
    base = DOCS / lang
    return sorted(p.relative_to(base) for p in base.rglob("*.md"))


def text(lang: str, page: Path | str) -> str:
    return (DOCS / lang / page).read_text(encoding="utf-8")


def includes(md: str) -> list[Include]:
    out = []
    for m in _INCLUDE.finditer(md):
        target = m["target"]
        file, _, section = target.partition(":")
        out.append(Include(file, section or None))
    return out


def figures(md: str) -> list[tuple[str, str]]:
    """(figure path without language suffix, language) for each figure reference."""
    return [(m["path"], m["lang"]) for m in _FIGURE.finditer(md)]


def anchors(md: str) -> list[str]:
    return [m["id"] for m in _ANCHOR.finditer(md)]


def fences(md: str) -> list[tuple[int, str, str]]:
    """(line number, info string, body) of each fenced block at any indentation."""
    lines = md.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, start = m["fence"], i
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        out.append((start + 1, m["info"].strip(), "\n".join(body)))
        i += 1
    return out


def is_python(info: str) -> bool:
    return info.split(" ", 1)[0].lower() in {"python", "py", "python3", "pycon"}


@cache
def _snippet_preprocessor():
    import markdown
    from pymdownx.snippets import SnippetPreprocessor

    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={
            "pymdownx.snippets": {
                "base_path": [str(ROOT / "snippets"), str(ROOT)],
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

    kept_lines = []
    lines = md.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            kept_lines.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(m["fence"]):
            j += 1
        block = lines[i : j + 1]
        if any(inc.path in drop_files for inc in includes("\n".join(block))):
            kept_lines.append("")
        elif is_python(m["info"]):
            # pytest-codeblocks only collects a bare ```python fence: drop title=, annotations
            kept_lines.extend([m["indent"] + "```python", *block[1:]])
        else:
            kept_lines.extend(block)
        i = j + 1
    expanded = expand("\n".join(kept_lines))
    blocks = extract_from_buffer(io.StringIO(_dedent_fences(expanded)))
    return [(n, b.code, list(b.marks)) for n, b in enumerate(blocks, 1) if b.syntax == "python"]


def _dedent_fences(md: str) -> str:
    # Fences inside tabs/admonitions are indented; pytest-codeblocks handles indentation
    # only for the fence line itself, so strip the common indent of each block here.
    out, lines, i = [], md.splitlines(), 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m or not m["indent"]:
            out.append(lines[i])
            i += 1
            continue
        indent = m["indent"]
        out.append(lines[i][len(indent) :])
        i += 1
        while i < len(lines):
            line = lines[i]
            out.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            i += 1
            if line.strip().startswith(m["fence"]):
                break
    return "\n".join(out)


def mkdocs_config() -> dict:
    """mkdocs.yml as plain data (custom tags such as !ENV read as None)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
