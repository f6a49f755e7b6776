"""MkDocs handlers: add to each page which torch releases its code was checked on.

The notes are made by tools/versions/notes.py from ``data/torch-versions/*.json``,
read once per build. A block that differs or fails on a release with no class in
``data/torch-versions/differences.yml`` fails the build, naming the block, the
release and what to do. Wired in by tools/site/hooks.py.
"""

from __future__ import annotations

from tools.core.repo import page_lang
from tools.versions.notes import annotate
from tools.versions.results import Matrix, load_matrix, section_lines

_matrix: Matrix | None = None


def load_results(config) -> None:
    global _matrix
    from tools.core.errors import ToolError
    from tools.versions.differences import unclassified

    section_lines.cache_clear()  # mkdocs serve: snippets may have changed
    try:
        _matrix = load_matrix()
    except ValueError as err:
        raise ToolError(str(err)) from None
    missing = unclassified(_matrix, _matrix.differences)
    if missing:
        raise ToolError(
            f"{len(missing)} torch-version difference(s) without a class:\n" + "\n".join(missing[:20])
        )


def add_version_notes(markdown: str, page, config, files) -> str:
    matrix = _matrix if _matrix is not None else load_matrix()
    lang, _ = page_lang(page.file.src_uri, config)
    return annotate(markdown, matrix, lang)
