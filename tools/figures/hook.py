"""Build-time figures in the site: rendered (or found in the cache) before the build,
then added to its files. Wired in by tools/site/hooks.py."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from tools.figures import build as figure_build

_built: dict[str, Path] = {}


def build_figures(config: MkDocsConfig) -> None:
    # Every build (each language, each `mkdocs serve` rebuild) asks again: renders are
    # cached by the content of the script and its inputs, so an unchanged figure costs
    # a hash, and an edited or failing one is rendered (or reported) now.
    # Under serve a failing script leaves the figures of the last good build in place
    # (the error is shown on the page); a plain build stops at the error.
    built = figure_build.build_all()
    _built.clear()
    _built.update(built)


def add_figure_files(files: Files, config: MkDocsConfig) -> Files:
    for uri, path in sorted(_built.items()):
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files
