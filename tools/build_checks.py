"""MkDocs hook: refuse to build what would mislead a reader, with a message that names
the file and says what to do.

- a page missing in one language (before anything is built; names the language);
- an include of a section that its snippet does not have (lists the sections it has);
- a recorded output whose snippet changed since it was recorded (the record carries a
  hash of the code that produced it), so a raising, hanging or changed snippet cannot
  be published with an old output under it.

Listed under ``hooks:`` in mkdocs.yml, so ``mkdocs build`` and ``mkdocs serve`` both run it.
The checks themselves: ``tools.page_checks``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(_ROOT))

from tools.page_checks import include_problems, missing_translations  # noqa: E402


@event_priority(100)  # before mkdocs-static-i18n builds the first language
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    problems = missing_translations(config.nav)
    if problems:
        raise PluginError("\n".join(problems))
    return config


@event_priority(100)  # before the Markdown (and pymdownx.snippets) runs
def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    where = f"docs/{page.file.src_uri}"
    problems = include_problems(markdown, where)
    if problems:
        raise PluginError("\n".join(problems))
    return markdown
