"""MkDocs handlers: refuse to build what would mislead a reader, with a message that names
the file and says what to do.

- a page missing in one language (before anything is built; names the language);
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
from tools.pages.checks import include_problems, missing_translations


def refuse_missing_translations(config: MkDocsConfig) -> MkDocsConfig:
    problems = missing_translations(config.nav)
    if problems:
        raise ToolError("\n".join(problems))
    return config


def refuse_bad_includes(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    where = f"docs/{page.file.src_uri}"
    problems = include_problems(markdown, where)
    if problems:
        raise ToolError("\n".join(problems))
    return markdown
