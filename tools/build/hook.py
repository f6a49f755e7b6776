"""MkDocs handler: generate what the pages include before each build
(``tools.build.generate``), so ``mkdocs serve`` shows a data edit at once; ``make
build`` runs the same step before the engine. Wired in by tools/site/hooks.py."""

from __future__ import annotations

from tools.build.generate import generate


def generate_before_build(config) -> None:
    generate()
