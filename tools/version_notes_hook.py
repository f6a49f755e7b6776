"""MkDocs hook: add to each page which torch releases its code was checked on.

The notes are made by tools/version_notes.py from ``data/torch-versions/*.json``,
read once per build. Listed under ``hooks:`` in mkdocs.yml.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(_ROOT))

from tools.torch_versions_data import Matrix, load_matrix, section_lines  # noqa: E402
from tools.version_notes import annotate  # noqa: E402

_matrix: Matrix | None = None


def on_pre_build(config) -> None:
    global _matrix
    from mkdocs.exceptions import PluginError

    section_lines.cache_clear()  # mkdocs serve: snippets may have changed
    try:
        _matrix = load_matrix()
    except ValueError as err:
        raise PluginError(str(err)) from None


def on_page_markdown(markdown: str, page, config, files) -> str:
    matrix = _matrix if _matrix is not None else load_matrix()
    lang = str(config.theme.get("language") or "en").split("_")[0]
    return annotate(markdown, matrix, "zh" if lang == "zh" else "en")
