"""MkDocs handlers: generate what the pages include before each build
(``tools.build.generate``), so ``mkdocs serve`` shows a data edit at once, and finish
the built pages after it (``tools.build.finish``). Another engine runs the same two
steps: ``python -m tools build generate``, the engine, ``python -m tools build finish
SITE``. Wired in by tools/site/hooks.py."""

from __future__ import annotations

from pathlib import Path

from tools.build.finish import finish
from tools.build.generate import generate


def generate_before_build(config) -> None:
    generate()


def finish_after_build(config) -> None:
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return  # the inner (English) build: the site is not complete yet
    finish(Path(config.site_dir))
