"""The version notes as a Python-Markdown extension, so any engine that renders the
pages with Python-Markdown adds them: the notes under output blocks and the marks
after quoted outputs (``tools.versions.notes.annotate_blocks``).

A preprocessor, run before pymdownx.snippets expands the includes (it reads them).
The notes are written in the extension's ``lang`` (a build of one language:
``tools.versions.markdown: {lang: zh}`` under ``markdown_extensions``), or, where one
build renders both languages (MkDocs with mkdocs-static-i18n), in the language of
the page being rendered, which the MkDocs hook sets (``set_language``). The results
are read once per build (``reset()``; the hook calls it when a build starts).
"""

from __future__ import annotations

from markdown import Extension
from markdown.preprocessors import Preprocessor

from tools.versions.results import Matrix, load_matrix

PRIORITY = 35  # before pymdownx.snippets (32), which replaces the include lines

_matrix: list[Matrix] = []
_language: list[str] = []


def set_language(lang: str) -> None:
    """The language of the page rendered next (one build, both languages)."""
    _language[:] = [lang]


def reset() -> None:
    """Read the results again at the next page (a new build, or `mkdocs serve`)."""
    _matrix.clear()


def matrix() -> Matrix:
    if not _matrix:
        _matrix.append(load_matrix())
    return _matrix[0]


class VersionNotes(Preprocessor):
    def __init__(self, md, lang: str):
        super().__init__(md)
        self.lang = lang

    def run(self, lines: list[str]) -> list[str]:
        from tools.versions.notes import annotate

        lang = self.lang or (_language[0] if _language else "zh")
        return annotate("\n".join(lines), matrix(), lang).split("\n")


class VersionNotesExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"lang": ["", "zh or en; empty: the page's, as the MkDocs hook sets it"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md) -> None:
        notes = VersionNotes(md, self.getConfig("lang"))
        md.preprocessors.register(notes, "torch_version_notes", PRIORITY)


def makeExtension(**kwargs) -> VersionNotesExtension:
    return VersionNotesExtension(**kwargs)
