"""MkDocs handlers: per-page downloads, published snippet files and the helper's wheel.

Wired in by tools/site/hooks.py, so ``mkdocs build`` and ``mkdocs serve`` both
run it. For each page with code it adds ``downloads/<page>.py`` and ``.ipynb``
(``en/downloads/...`` for English; see tools/downloads/files.py); the line under the
page title that links them is tools/build/machinery.py's. Every ``snippets/...`` file is published under
``snippets/``; after the build, tools/build/finish.py links each code-block title
``snippets/x.py`` to that copy (tools/downloads/html.py). Nothing here makes the page
load anything from another host.
"""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from tools.core import cache as build_cache
from tools.core.errors import ToolError
from tools.core.repo import DOCS, ROOT, SNIPPETS, page_lang
from tools.downloads import files as dl
from tools.downloads import wheel as helper_wheel
from tools.pages.code import PageCodeError
from tools.snippets.source import SnippetError

_state: dict = {"downloads": {}, "wheel": None}


def _fingerprint(lang: str) -> tuple:
    """Changes when a page or snippet changes (mkdocs serve rebuilds)."""
    paths = [*(DOCS / lang).rglob("*.md"), *SNIPPETS.rglob("*.py"), *SNIPPETS.rglob("*.out")]
    return tuple(sorted((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths))


def _inputs(lang: str) -> list[Path]:
    """Every file the downloads of ``lang`` are made from (and the code that makes them)."""
    folders = [DOCS / lang, DOCS / "includes", SNIPPETS, ROOT / "includes"]
    found = [p for folder in folders if folder.is_dir() for p in folder.rglob("*") if p.is_file()]
    code = [ROOT / "tools" / pkg for pkg in ("core", "pages", "snippets", "downloads")]
    return [*found, *(p for folder in code for p in folder.rglob("*.py"))]


def _downloads(lang: str) -> dict[str, str]:
    key = _fingerprint(lang)
    cached = _state["downloads"].get(lang)
    if cached and cached[0] == key:
        return cached[1]
    versions = build_cache.version("nbformat", "torch")
    digest = build_cache.key(lang, versions, build_cache.files_key(_inputs(lang)))
    stored = build_cache.get("downloads", digest)
    if stored is not None:
        made = json.loads(stored)
    else:
        try:
            made = dl.all_downloads(lang, cuda=False)
        except (PageCodeError, SnippetError) as err:
            raise ToolError(f"Page downloads: {err}") from None
        build_cache.put("downloads", digest, json.dumps(made, ensure_ascii=False))
    _state["downloads"][lang] = (key, made)
    return made


def _wheel() -> Path:
    if _state["wheel"] is None or not _state["wheel"].is_file():
        try:
            _state["wheel"] = helper_wheel.build()
        except helper_wheel.WheelError as err:
            raise ToolError(str(err)) from None
    return _state["wheel"]


def wheel_uri() -> str:
    return f"{dl.DOWNLOADS}/{_wheel().name}"


def published_snippet_files() -> list[Path]:
    """The snippet files the site publishes: each snippet and the record beside it.

    Plain files only (a symlink could publish any file of the machine: the build
    refuses them, tools.core.repo.check_text_files), and a record only with its
    snippet (an orphan ``.out`` is no record)."""
    found = []
    for path in sorted([*SNIPPETS.rglob("*.py"), *SNIPPETS.rglob("*.out")]):
        if path.is_symlink() or not path.is_file():
            continue
        if path.suffix == ".out" and not path.with_suffix(".py").is_file():
            continue
        found.append(path)
    return found


def _readable(uri: str, text: str) -> str:
    """A notebook's cells as text (its JSON escapes every line break and backslash)."""
    if not uri.endswith(".ipynb"):
        return text
    cells = json.loads(text).get("cells", [])
    parts = []
    for cell in cells:
        parts.append("".join(cell.get("source", [])))
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", [])))
            parts.extend("".join(v) for v in out.get("data", {}).values() if isinstance(v, (str, list)))
    return "\n".join(parts)


def refuse_leaks(downloads: dict[str, str], snippet_files: list[Path]) -> None:
    """Nothing of the build machine is published: no secret from the environment, no
    personal user or host name, no absolute path outside the interpreter
    (``tools.snippets.scan``), in a download, a snippet or a record."""
    from tools.core.repo import read_text
    from tools.snippets import scan

    found = []
    for uri, text in sorted(downloads.items()):
        found += scan.problems(f"the download {uri}", _readable(uri, text))
    for path in snippet_files:
        found += scan.problems(path.relative_to(ROOT).as_posix(), read_text(path))
    if found:
        raise ToolError("\n".join(found[:5]) + ("\n…" if len(found) > 5 else "") + "\n" + scan.FIX)


def add_download_files(files: Files, config: MkDocsConfig) -> Files:
    lang = page_lang("", config)[0]
    published = published_snippet_files()
    refuse_leaks(_downloads(lang), published)
    for uri, text in sorted(_downloads(lang).items()):
        files.append(File.generated(config, uri, content=text))
    for path in published:
        uri = path.relative_to(ROOT).as_posix()
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    wheel = _wheel()
    if files.get_file_from_path(wheel_uri()) is None:
        files.append(File.generated(config, wheel_uri(), abs_src_path=str(wheel)))
    return files
