"""MkDocs handlers: the version notes on every page.

The notes are made by tools/versions/notes.py from ``data/torch-versions/*.json``,
read once per build; the pages get them through a Python-Markdown extension
(tools/versions/markdown.py), registered here. A block that differs or fails on a
release with no class in ``data/torch-versions/differences.yml`` fails the build,
naming the block, the release and what to do. Wired in by tools/site/hooks.py.
"""

from __future__ import annotations

from tools.versions import markdown as notes_extension
from tools.versions.results import load_matrix, section_lines


def use_version_notes(config):
    """Render every page with the version-notes extension (once per config)."""
    if not any(isinstance(e, notes_extension.VersionNotesExtension) for e in config.markdown_extensions):
        config.markdown_extensions.append(notes_extension.VersionNotesExtension())
    return config


def note_page_language(page, config, files):
    """The notes of the page about to be rendered are in its language."""
    from tools.core.repo import page_lang

    notes_extension.set_language(page_lang(page.file.src_uri, config)[0])
    return page


def load_results(config) -> None:
    from tools.core.errors import ToolError
    from tools.versions.differences import unclassified

    section_lines.cache_clear()  # mkdocs serve: snippets may have changed
    notes_extension.reset()
    try:
        matrix = load_matrix()
    except ValueError as err:
        raise ToolError(str(err)) from None
    missing = unclassified(matrix, matrix.differences)
    if missing:
        raise ToolError(
            f"{len(missing)} torch-version difference(s) without a class:\n" + "\n".join(missing[:20])
        )
