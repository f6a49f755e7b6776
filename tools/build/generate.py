"""Generate, then render: everything the pages include that is made from data.

``python -m tools build generate`` (``make build`` and ``make serve`` run it before the
engine; the MkDocs hook runs it at the start of every build, so ``mkdocs serve``
picks up a data edit) writes:

- ``generated/<lang>/...md``: Markdown the pages include with ``--8<--`` (base path
  ``generated/``): the fact check's verdict count and table, the changelog, the
  values of the Run-the-code page;
- ``overrides/generated/<lang>/<page>.head.html`` and ``.end.html``: each page's
  machinery (``tools.build.machinery``), which the theme's ``partials/content.html``
  places after the page's title and after its content.

Both folders are build output (git-ignored). A file is written only when its text
changes, and files of pages that no longer exist are removed, so ``mkdocs serve``
(which watches the theme) reloads once, not forever. The engine then only renders
Markdown: no handler inserts generated text into a page.
"""

from __future__ import annotations

from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import LANGS, ROOT

GENERATED = ROOT / "generated"
TEMPLATES = ROOT / "overrides" / "generated"


def _write(path: Path, text: str, written: set[Path]) -> bool:
    """Write ``text`` unless the file holds it already; True when it changed."""
    written.add(path)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)  # a reader of the folder never sees half a file
    return True


def _remove_others(folder: Path, keep: set[Path]) -> None:
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file() and path not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def chapter_includes(lang: str) -> dict[str, str]:
    """generated/<lang>/<name> -> text: the fact check's parts and the changelog."""
    from tools.chapters.changelog import render as changelog
    from tools.chapters.factcheck import load as fact_check_data
    from tools.chapters.factcheck import render as fact_check
    from tools.versions.results import load_matrix

    claims = fact_check_data.load_claims(fact_check_data.DATA)
    try:
        log = changelog.render(load_matrix(), lang, "reference/changelog.md")
    except ValueError as err:
        raise ToolError(f"data/torch-versions/: {err}") from None
    return {
        "fact-check/summary.md": fact_check.summary(claims, lang) + "\n",
        "fact-check/table.md": fact_check.render(claims, lang, "fact-check.md") + "\n",
        "reference/changelog.md": log + "\n",
        **run_page_includes(lang),
    }


def run_page_includes(lang: str) -> dict[str, str]:
    """The Run-the-code page's values: the site's address, the wheel, the repository."""
    from tools.downloads import wheel as helper_wheel
    from tools.downloads.html import run_page_values
    from tools.pages.parse import mkdocs_config

    try:
        wheel = helper_wheel.build()
    except helper_wheel.WheelError as err:
        raise ToolError(str(err)) from None
    from tools.core.repo import source_repository

    site_url = str(mkdocs_config().get("site_url") or "").rstrip("/")
    return run_page_values(lang, wheel=wheel, site_url=site_url, repo=source_repository())


def page_machinery(lang: str, page: Path, matrix, with_code: set[Path]) -> tuple[str, str]:
    """(head, end) HTML of one page."""
    from tools.build.machinery import end_block, head_line
    from tools.pages import parse as pages
    from tools.versions.notes import version_line

    markdown = pages.text(lang, page)
    line = version_line(markdown, matrix, lang)
    return head_line(lang, page, page in with_code, line), end_block(markdown, lang, page.as_posix(), line)


KEY = GENERATED / ".inputs"  # the digest of what the last run read


def _inputs_key() -> str:
    """A digest of every file of the repository that is not build output (pages, data,
    snippets, records, tools, the helper), and of the build's repository settings."""
    import hashlib
    import os
    import subprocess

    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    ).stdout.decode()
    digest = hashlib.sha256()
    for name in sorted(n for n in listed.split("\0") if n):
        path = ROOT / name
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    for var in ("SOURCE_REPOSITORY", "SITE_COMMIT"):
        digest.update(f"{var}={os.environ.get(var, '')}\0".encode())
    return digest.hexdigest()


def _chapter_pages() -> list[Path]:
    """Rewrite the generated chapters' pages that differ from their data."""
    from tools.chapters.apis.render import write as apis
    from tools.chapters.errors.render import write as errors
    from tools.chapters.faq.render import write as faq
    from tools.chapters.patterns.render import write as patterns

    return [*faq(), *apis(), *patterns(), *errors()]


def generate(force: bool = False) -> list[Path]:
    """Write what the pages include (and the generated chapters' pages); the files
    that changed. Nothing runs when no input changed since the last run."""
    from tools.pages import parse as pages
    from tools.pages.code import pages_with_code
    from tools.versions.results import load_matrix

    if not force and KEY.is_file() and KEY.read_text(encoding="utf-8") == _inputs_key():
        return []
    written: set[Path] = set()
    changed: list[Path] = _chapter_pages()
    try:
        matrix = load_matrix()
    except ValueError as err:
        raise ToolError(f"data/torch-versions/: {err}") from None
    for lang in LANGS:
        for name, text in chapter_includes(lang).items():
            path = GENERATED / lang / name
            if _write(path, text, written):
                changed.append(path)
        with_code = set(pages_with_code(lang))
        for page in pages.pages(lang):
            head, end = page_machinery(lang, page, matrix, with_code)
            stem = TEMPLATES / lang / page.with_suffix("")
            for suffix, text in ((".head.html", head), (".end.html", end)):
                if text and _write(stem.with_name(stem.name + suffix), text, written):
                    changed.append(stem.with_name(stem.name + suffix))
    _remove_others(TEMPLATES, written)
    _remove_others(GENERATED, written | {KEY})
    _write(KEY, _inputs_key(), written)
    return changed
