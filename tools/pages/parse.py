"""Read the Markdown pages: their includes, figures, anchors and fenced blocks.

The include syntax is pymdownx.snippets' ``--8<-- "file.py:section"``; a snippet
under ``snippets/<page path>/`` belongs to the page ``<page path>.md``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.memo import per_build
from tools.core.repo import DOCS, LANGS, ROOT, SNIPPETS, read_text

__all__ = ["DOCS", "LANGS", "ROOT"]  # re-exported: tests read the layout from here

INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+["'](?P<target>[^"']+)["']\s*$""", re.M)
_FIGURE = re.compile(r"assets/figures/(?P<path>[^)\s\"']+?)\.(?P<lang>zh|en)\.svg")
# {#id} and {#id key="value" ...} (attributes after the id: data-pagefind-ignore)
_ANCHOR = re.compile(r"\{\s*#(?P<id>[-\w]+)(?:\s+[^{}#]*?)?\s*\}")
# One include of a snippet or record file, with its section: path, ext, section.
SECTION_INCLUDE = re.compile(
    r'^(?P<indent>[ \t]*)--8<--\s+"(?P<path>[^"]+?\.(?P<ext>py|out))(?::(?P<section>[a-z][-_0-9a-z]*))?"\s*$'
)
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")


# The folders pages may embed files from (pymdownx.snippets' base_path in mkdocs.yml
# lists the same, and tests/tooling/test_pages_safety.py compares them). Only snippets/:
# the repository root was a base path for the shared box includes/executed.<lang>.md,
# removed in 8921ff7; with it, any file of the checkout (.git/config too) could be
# embedded. A folder added here is published as it is: add one that holds text for
# readers only (never the repository root, data/ with its schemas, or tools/).
# generated/ holds what the build writes from data before the engine runs
# (tools/build/generate.py): the fact check's table, the changelog, run-page values.
INCLUDE_BASES = (SNIPPETS, ROOT / "generated")


@dataclass(frozen=True)
class Include:
    file: str  # path as written, relative to snippets/
    section: str | None

    @property
    def path(self) -> Path:
        # normpath, not resolve(): the bases are absolute already, and resolve() stats
        # every component (thousands of calls per build). tools.pages.checks resolves
        # symlinks once per include, to keep every include inside INCLUDE_BASES.
        for base in INCLUDE_BASES:
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


@per_build
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


# pymdownx.snippets' own syntax: an inline include (a quoted path after the marker) or a
# block of paths between two bare markers; a ';' before the marker escapes it.
_SNIPPET_LINE = re.compile(
    r"""^[ \t]*(?P<escape>;*)(?:-{1,}8<-{1,}[ \t]+(?P<quoted>"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?')"""
    r"""(?![ \t])|(?P<block>-{1,}8<-{1,})(?![ \t]))\r?$"""
)


def include_targets(md: str) -> list[tuple[int, str]]:
    """(line number, path as written) of every file pymdownx.snippets would read for
    ``md``: inline includes and each line of a block include (line ranges and
    sections stripped)."""
    out = []
    in_block = False
    for no, line in enumerate(md.splitlines(), 1):
        m = _SNIPPET_LINE.match(line)
        if m and m["escape"]:
            continue
        if m and m["block"]:
            in_block = not in_block
            continue
        if in_block:
            if line.strip():
                out.append((no, _bare_path(line.strip())))
            continue
        if m and m["quoted"]:
            out.append((no, _bare_path(m["quoted"][1:-1])))
    return out


def _bare_path(target: str) -> str:
    """``file.py:section`` or ``file.py:3:10`` -> ``file.py`` (a Windows drive kept)."""
    m = re.match(r"^(?P<path>(?:[A-Za-z]:[\\/])?[^:]*)(?::.*)?$", target)
    return m["path"] if m else target


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


def mkdocs_config(python_names: bool = False) -> dict:
    """mkdocs.yml as plain data: ``!ENV`` read as MkDocs reads it (the first variable
    set, else the default), other custom tags as None; with ``python_names``, a
    ``!!python/name:X`` value as the string "X" (what Zensical resolves itself)."""
    import yaml
    from yaml_env_tag import construct_env_tag

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!ENV", construct_env_tag)
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    if python_names:
        Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: suffix)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


# Words that mark text nobody has written yet (or translated): a page or a data field
# that holds one is refused, in either language.
_PLACEHOLDER = re.compile(
    r"\b(?:TODO|TBD|FIXME|XXX)\b"
    r"|(?i:\b(?:to be translated|translate (?:me|this|later))\b|^\W*translate\W*$)"
    r"|待翻译|待补充|待定|未翻译|翻译中",
    re.M,
)


_QUOTED = re.compile(r"(`+).+?\1|\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」")


def untranslated(text: str) -> str | None:
    """The placeholder in ``text`` (``TODO``, ``TBD``, "translate me", 待翻译...), or None.
    Code and quotations are left out: a quoted source comment may say TODO."""
    m = _PLACEHOLDER.search(_QUOTED.sub(" ", text))
    return m.group(0) if m else None
