"""MkDocs hooks: build-time figures, the mkdocstrings locale per language, a
bytecode cache for the Jinja templates of the theme and of mkdocstrings, the build date
taken from the commit (reproducible builds), and a `mkdocs serve` that does not keep
every earlier build in memory.

Listed under ``hooks:`` in mkdocs.yml, so plain ``mkdocs build`` / ``mkdocs serve``
run them; no wrapper script is needed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from jinja2 import FileSystemBytecodeCache
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(_ROOT))

from tools import figure_build  # noqa: E402

_built: dict[str, Path] = {}
# Compiled theme templates, kept between builds: compiling them cost ~1/6 of a warm build
# (the i18n plugin builds twice, each time with a fresh environment). Jinja checks each
# template's source checksum, so an edited template is recompiled.
JINJA_CACHE = _ROOT / ".cache" / "jinja"


def source_date_epoch() -> str | None:
    """The commit date of HEAD in seconds, or None outside a git checkout."""
    try:
        proc = subprocess.run(
            ["git", "log", "-1", "--format=%ct"], cwd=_ROOT, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    value = proc.stdout.strip()
    return value if proc.returncode == 0 and value.isdigit() else None


def on_startup(command: str, dirty: bool) -> None:
    # MkDocs dates the sitemap (<lastmod>) and the gzip header of sitemap.xml.gz with
    # SOURCE_DATE_EPOCH when it is set, else with today. The commit date makes two
    # builds of one commit byte-identical on any day. An explicit value wins.
    if "SOURCE_DATE_EPOCH" not in os.environ:
        epoch = source_date_epoch()
        if epoch is not None:
            os.environ["SOURCE_DATE_EPOCH"] = epoch


@event_priority(-200)  # after mkdocs-static-i18n (-100) has set this build's language
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # mkdocstrings fixes its locale in its own on_config, before i18n switches the
    # theme language, so zh pages would get English section headings. Re-apply it.
    plugin = config.plugins.get("mkdocstrings")
    language = config.theme.get("language") or "en"
    if plugin is not None and getattr(plugin, "_handlers", None) is not None:
        plugin._handlers._locale = str(language).replace("_", "-")
    return config


def _template_cache(env) -> None:
    if env.bytecode_cache is None:
        JINJA_CACHE.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(str(JINJA_CACHE))


def on_env(env, config: MkDocsConfig, files: Files):
    _template_cache(env)
    return env


def on_page_markdown(markdown: str, page, config: MkDocsConfig, files: Files) -> str:
    # The API page: mkdocstrings' own environment compiles its ~30 templates afresh on
    # every build (every `mkdocs serve` reload) without a bytecode cache.
    if ":::" in markdown and "mkdocstrings" in config.plugins:
        _template_cache(config.plugins["mkdocstrings"].get_handler("python").env)
    return markdown


def _forget_earlier_builds() -> None:
    # mkdocstrings-python memoizes a template test with functools.cache on its Jinja
    # environment, which holds its handler and through it the whole build's config and
    # pages. Under `mkdocs serve` each reload then kept every earlier build (~7 MB
    # each, and more for the garbage collector to walk: reloads slowed by ~0.4 s each).
    try:
        from mkdocstrings_handlers.python._internal import rendering
    except ImportError:  # another version: nothing to forget
        return
    clear = getattr(getattr(rendering, "_test_existing_template", None), "cache_clear", None)
    if clear is not None:
        clear()


def on_pre_build(config: MkDocsConfig) -> None:
    _forget_earlier_builds()
    # i18n runs one build per language; the figures are rendered (or found in the
    # cache) once per process and reused.
    if _built:
        return
    try:
        _built.update(figure_build.build_all())
    except figure_build.FigureError as err:
        raise PluginError(str(err)) from None


@event_priority(-200)  # after i18n has rebuilt the file list
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for uri, path in sorted(_built.items()):
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files
