"""MkDocs handlers: refuse to build what would mislead a reader, with a message that names
the file and says what to do.

- a page missing in one language (before anything is built; names the language);
- heading anchors that differ between the languages, a glossary row that does not parse;
- an include of a section that its snippet does not have (lists the sections it has);
- a recorded output whose snippet changed since it was recorded (the record carries a
  hash of the code that produced it), so a raising, hanging or changed snippet cannot
  be published with an old output under it.

Wired in by tools/site/hooks.py, so ``mkdocs build`` and ``mkdocs serve`` both run it.
The checks themselves: ``tools.pages.checks``.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from tools.core.errors import ToolError
from tools.core.repo import LANGS
from tools.pages.checks import anchor_drift, include_problems, missing_translations


def refuse_missing_translations(config: MkDocsConfig) -> MkDocsConfig:
    problems = missing_translations(config.nav)
    if problems:
        raise ToolError("\n".join(problems))
    return config


def refuse_drift_between_languages(config: MkDocsConfig) -> None:
    """Heading anchors that differ between zh and en, and a glossary row that does not
    parse, are refused before anything is built (the tests check them too)."""
    from tools.chapters.glossary.load import terms

    problems = anchor_drift()
    if problems:
        raise ToolError("\n".join(problems))
    for lang in LANGS:
        terms(lang)


def refuse_bad_includes(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    where = f"docs/{page.file.src_uri}"
    problems = include_problems(markdown, where)
    if problems:
        raise ToolError("\n".join(problems))
    return markdown
