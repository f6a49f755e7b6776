"""Read the Markdown pages: their includes, figures, anchors and fenced blocks.

The include syntax is pymdownx.snippets' ``--8<-- "file.py:section"``; a snippet
under ``snippets/<page path>/`` belongs to the page ``<page path>.md``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT, SNIPPETS, read_text

__all__ = ["DOCS", "LANGS", "ROOT"]  # re-exported: tests read the layout from here

INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+["'](?P<target>[^"']+)["']\s*$""", re.M)
_FIGURE = re.compile(r"assets/figures/(?P<path>[^)\s\"']+?)\.(?P<lang>zh|en)\.svg")
_ANCHOR = re.compile(r"\{\s*#(?P<id>[-\w]+)\s*\}")
# One include of a snippet or record file, with its section: path, ext, section.
SECTION_INCLUDE = re.compile(
    r'^(?P<indent>[ \t]*)--8<--\s+"(?P<path>[^"]+?\.(?P<ext>py|out))(?::(?P<section>[a-z][-_0-9a-z]*))?"\s*$'
)
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")


@dataclass(frozen=True)
class Include:
    file: str  # path as written, relative to snippets/ (or the repo root)
    section: str | None

    @property
    def path(self) -> Path:
        # normpath, not resolve(): the bases are absolute already, and resolve() stats
        # every component (thousands of calls per build).
        for base in (SNIPPETS, ROOT / "generated", ROOT):
            if (base / self.file).is_file():
                return Path(os.path.normpath(base / self.file))
        return Path(os.path.normpath(SNIPPETS / self.file))


def pages(lang: str) -> list[Path]:
    """Pages of one language, relative to docs/<lang>/."""
    base = DOCS / lang
    return sorted(p.relative_to(base) for p in base.rglob("*.md"))


def text(lang: str, page: Path | str) -> str:
    return read_text(DOCS / lang / page)


_H1 = re.compile(r"^# (?P<title>.+?)\s*(\{[^}]*\})?\s*$", re.M)


@cache
def title(lang: str, page: str) -> str:
    """The page's level-1 heading (what the reader sees as its title)."""
    path = DOCS / lang / page
    if not path.is_file():
        raise ToolError(
            f"docs/{lang}/{page} does not exist; a link points to it: fix the link or write the page."
        )
    m = _H1.search(path.read_text(encoding="utf-8"))
    return m["title"] if m else Path(page).stem


def iter_includes(md: str) -> Iterator[tuple[int, Include]]:
    """(offset in ``md``, include) for each include line."""
    for m in INCLUDE.finditer(md):
        file, _, section = m["target"].partition(":")
        yield m.start(), Include(file, section or None)


def includes(md: str) -> list[Include]:
    return [inc for _, inc in iter_includes(md)]


def owner_pages(snippet: Path) -> tuple[str, ...]:
    """The pages a snippet's folder says it belongs to: ``x/y.md`` or ``x/y/index.md``.

    ``snippets/x/y/z.py`` belongs to ``x/y.md`` (the tree mirrors the pages); a file
    outside ``snippets/`` (shared prose in ``includes/``) belongs to no page.
    """
    try:
        folder = Path(snippet).resolve().parent.relative_to(SNIPPETS).as_posix()
    except ValueError:
        return ()
    return f"{folder}.md", f"{folder}/index.md"


def figures(md: str) -> list[tuple[str, str]]:
    """(figure path without language suffix, language) for each figure reference."""
    return [(m["path"], m["lang"]) for m in _FIGURE.finditer(md)]


def anchors(md: str) -> list[str]:
    return [m["id"] for m in _ANCHOR.finditer(md)]


def walk_fences(lines: list[str]) -> Iterator[tuple[int, int, re.Match]]:
    """(first line, closing line, opening match) of each fenced block, 0-based.

    The closing line is ``len(lines)`` for a fence left open.
    """
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(m["fence"]):
            j += 1
        yield i, j, m
        i = j + 1


def fences(md: str) -> list[tuple[int, str, str]]:
    """(line number, info string, body) of each fenced block at any indentation."""
    lines = md.splitlines()
    return [(i + 1, m["info"].strip(), "\n".join(lines[i + 1 : j])) for i, j, m in walk_fences(lines)]


def is_python(info: str) -> bool:
    return info.split(" ", 1)[0].lower() in {"python", "py", "python3", "pycon"}


def mkdocs_config() -> dict:
    """mkdocs.yml as plain data: ``!ENV`` read as MkDocs reads it (the first variable
    set, else the default), other custom tags as None."""
    import yaml
    from yaml_env_tag import construct_env_tag

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!ENV", construct_env_tag)
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
