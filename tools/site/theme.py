"""Handlers for the theme and the build itself: the mkdocstrings locale per language,
a bytecode cache for the Jinja templates of the theme and of mkdocstrings, the build
date taken from the commit (reproducible builds), and a `mkdocs serve` that does not
keep every earlier build in memory. Wired in by tools/site/hooks.py.
"""

from __future__ import annotations

import os
import subprocess

from jinja2 import FileSystemBytecodeCache
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from tools.core.repo import ROOT as _ROOT

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


def date_build_from_commit(command: str, dirty: bool) -> None:
    # MkDocs dates the sitemap (<lastmod>) and the gzip header of sitemap.xml.gz with
    # SOURCE_DATE_EPOCH when it is set, else with today. The commit date makes two
    # builds of one commit byte-identical on any day. An explicit value wins.
    if "SOURCE_DATE_EPOCH" not in os.environ:
        epoch = source_date_epoch()
        if epoch is not None:
            os.environ["SOURCE_DATE_EPOCH"] = epoch


def localize_mkdocstrings(config: MkDocsConfig) -> MkDocsConfig:
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


def cache_theme_templates(env, config: MkDocsConfig, files: Files):
    _template_cache(env)
    return env


def cache_mkdocstrings_templates(markdown: str, page, config: MkDocsConfig, files: Files) -> str:
    # The API page: mkdocstrings' own environment compiles its ~30 templates afresh on
    # every build (every `mkdocs serve` reload) without a bytecode cache.
    if ":::" in markdown and "mkdocstrings" in config.plugins:
        _template_cache(config.plugins["mkdocstrings"].get_handler("python").env)
    return markdown


def forget_earlier_builds(config: MkDocsConfig) -> None:
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
