"""The site's one MkDocs hook (``hooks:`` in mkdocs.yml): every handler, in order.

Each ``on_<event>`` below lists its handlers with their priority. MkDocs runs higher
priorities first; at equal priority, plugins (search, autorefs, mkdocstrings) run
before these handlers and these run in the order written. mkdocs-static-i18n runs at
50 (page_markdown) and -100 (config, post_build), and its second language is a whole
second build. The feature code lives in its package; this module only wires it, and
turns a ``ToolError`` (bad input, with a message naming the file) into a build error
without a traceback; under ``mkdocs serve``, into the box tools/site/serve.py shows at
the top of every page while the server keeps serving.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent

# MkDocs loads a hook by its path, with only its own folder on sys.path.
_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tools.build import hook as build_steps  # noqa: E402
from tools.core import memo  # noqa: E402
from tools.core import target as build_target  # noqa: E402
from tools.core.errors import ToolError  # noqa: E402
from tools.core.repo import check_text_files  # noqa: E402
from tools.downloads import hook as downloads  # noqa: E402
from tools.figures import hook as figures  # noqa: E402
from tools.pages import checks as page_checks  # noqa: E402
from tools.site import cache_hook, checks, reader_hook, serve, theme  # noqa: E402
from tools.versions import hook as versions  # noqa: E402

# MkDocs loads this file once per process (its hook loader is cached), so under
# `mkdocs serve` every rebuild reuses these modules: each handler that keeps state
# starts it afresh per build (figures are re-checked, data re-read; errors below).


def _new_build(config):
    serve.new_build()
    memo.forget_all()  # pages, snippets and data may have changed under serve
    return config


def _handlers(*table, blank_on_error: bool = False):
    """One event's handlers from (priority, handler) pairs, errors explained."""

    def explained(priority, handler):
        @functools.wraps(handler)
        def run(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except ToolError as err:
                if serve.serving():
                    return serve.remember(str(err), args, blank_on_error)
                raise PluginError(str(err)) from None

        run.mkdocs_priority = priority
        return run

    return CombinedEvent(*(explained(p, h) for p, h in table))


on_startup = _handlers(
    (0, serve.note_command),  # under serve, errors go to the page (see above)
    (0, theme.date_build_from_commit),  # SOURCE_DATE_EPOCH: reproducible builds
)

on_config = _handlers(
    (110, _new_build),
    (105, build_target.check_build_target),  # a full disk, a taken port: one line, before building
    (100, checks.refuse_missing_translations),  # before i18n builds a language
    (0, cache_hook.use_build_cache),
    (0, reader_hook.require_search_words),
    (0, versions.use_version_notes),  # a Markdown extension: no page_markdown handler
    (-200, theme.localize_mkdocstrings),  # after i18n (-100) set the language
)

on_pre_build = _handlers(
    (100, lambda config: check_text_files()),  # a non-UTF-8 byte: named, not a traceback
    (100, checks.refuse_drift_between_languages),
    (100, page_checks.refuse_unsafe_content),  # script, placeholders, zh/en numbers, links, boxes
    (0, theme.forget_earlier_builds),
    (0, figures.build_figures),
    (0, versions.load_results),
    (0, build_steps.generate_before_build),  # generate, then render: what pages include
)

on_files = _handlers(
    (-200, figures.add_figure_files),  # after i18n (-100) rebuilt the file list
    (-200, downloads.add_download_files),
)

on_env = _handlers(
    (0, theme.cache_theme_templates),
)

on_pre_page = _handlers(
    (0, versions.note_page_language),  # the version notes' language (one build, two languages)
)

on_page_markdown = _handlers(
    (100, checks.refuse_bad_includes),  # before pymdownx.snippets expands them
    (0, theme.cache_mkdocstrings_templates),
    blank_on_error=True,
)

on_post_page = _handlers(
    (-150, reader_hook.finish_page_html),  # after i18n wrote its tags
    (-200, serve.error_box),  # serve only
)

on_post_template = _handlers(
    (0, reader_hook.keep_default_404),
)

on_post_build = _handlers(
    (-150, reader_hook.write_default_404),  # after i18n built both languages
    (-160, build_steps.finish_after_build),  # the passes over the built pages, once per build
    (-170, reader_hook.index_search),  # Pagefind over the finished pages
)
