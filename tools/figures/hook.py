"""Build-time figures in the site: rendered (or found in the cache) before the build,
then added to its files. Wired in by tools/site/hooks.py."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from tools.figures import build as figure_build

_built: dict[str, Path] = {}


def build_figures(config: MkDocsConfig) -> None:
    # i18n runs one build per language; the figures are rendered (or found in the
    # cache) once per process and reused.
    if not _built:
        _built.update(figure_build.build_all())


def add_figure_files(files: Files, config: MkDocsConfig) -> Files:
    for uri, path in sorted(_built.items()):
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files
