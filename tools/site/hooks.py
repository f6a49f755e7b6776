"""The site's one MkDocs hook (``hooks:`` in mkdocs.yml): every handler, in order.

Each ``on_<event>`` below lists its handlers with their priority. MkDocs runs higher
priorities first; at equal priority, plugins (search, autorefs, mkdocstrings) run
before these handlers and these run in the order written. mkdocs-static-i18n runs at
50 (page_markdown) and -100 (config, post_build), and its second language is a whole
second build. The feature code lives in its package; this module only wires it, and
turns a ``ToolError`` (bad input, with a message naming the file) into a build error
without a traceback. Under ``mkdocs serve`` the error is shown instead in the browser,
at the top of every page (and in the terminal), and the server keeps serving: MkDocs
would otherwise hold every request until the fix. The next save rebuilds as usual.
"""

from __future__ import annotations

import functools
import html
import os
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent

# MkDocs loads a hook by its path, with only its own folder on sys.path.
_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tools.build import hook as generated  # noqa: E402
from tools.chapters.factcheck import render as factcheck_render  # noqa: E402
from tools.chapters.faq import render as faq_render  # noqa: E402
from tools.core import target as build_target  # noqa: E402
from tools.core.errors import ToolError  # noqa: E402
from tools.core.repo import check_text_files  # noqa: E402
from tools.downloads import hook as downloads  # noqa: E402
from tools.downloads import model as snippet_model  # noqa: E402
from tools.figures import hook as figures  # noqa: E402
from tools.pages import checks as page_checks  # noqa: E402
from tools.pages import parse as page_files  # noqa: E402
from tools.site import cache_hook, checks, reader_hook, theme  # noqa: E402
from tools.versions import hook as versions  # noqa: E402

# MkDocs loads this file once per process (its hook loader is cached), so under
# `mkdocs serve` every rebuild reuses these modules: each handler that keeps state
# starts it afresh per build (figures are re-checked, data re-read; errors below).


_SERVING = "DETACH_SITE_SERVING"  # set at startup, read by every later build
_errors: list[str] = []  # this build's errors, under serve; cleared at each config load


def _note_command(command: str, **_) -> None:
    if command == "serve":
        os.environ[_SERVING] = "1"


def _new_build(config):
    _errors.clear()  # a rebuild after the fix shows the page again
    # what the cached readers know of pages and snippets may have changed under serve
    for cached in (page_files.title, snippet_model._snippet, factcheck_render.page_index, faq_render._topics):
        cached.cache_clear()
    return config


def _error_box(markdown_or_html: str, html_page: bool) -> str:
    if not _errors:
        return markdown_or_html
    text = "\n\n".join(html.escape(e) for e in _errors)
    box = (
        '<div class="admonition failure build-error"><p class="admonition-title">'
        f"Build error (mkdocs serve) — fix it and save</p><pre>{text}</pre></div>"
    )
    if html_page:
        return markdown_or_html.replace("<article", box + "<article", 1)
    return box + "\n\n" + markdown_or_html


def _serve_error(err: ToolError, args: tuple, blank: bool):
    """Under serve: remember the error, tell the terminal, go on with the input (a
    page's Markdown is dropped: what follows would fail on it again)."""
    message = str(err)
    if message not in _errors:
        _errors.append(message)
        print(f"ERROR (shown at the top of every page) - {message}", file=sys.stderr)
    if blank:
        return ""
    return args[0] if args else None


def _handlers(*table, blank_on_error: bool = False):
    """One event's handlers from (priority, handler) pairs, errors explained."""

    def explained(priority, handler):
        @functools.wraps(handler)
        def run(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except ToolError as err:
                if os.environ.get(_SERVING):
                    return _serve_error(err, args, blank_on_error)
                raise PluginError(str(err)) from None

        run.mkdocs_priority = priority
        return run

    return CombinedEvent(*(explained(p, h) for p, h in table))


on_startup = _handlers(
    (0, _note_command),  # under serve, errors go to the page (see above)
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
    (0, generated.generate_before_build),  # generate, then render: what pages include
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

on_page_content = _handlers(
    (0, reader_hook.shape_content_html),
    (0, downloads.link_titles),
    (-100, page_checks.refuse_executable_html),  # last: nothing executable from content or data
)

on_post_page = _handlers(
    (-150, reader_hook.finish_page_html),  # after i18n wrote its tags
    (-200, lambda output, page, config: _error_box(output, html_page=True)),  # serve only
)

on_post_template = _handlers(
    (0, reader_hook.keep_default_404),
)

on_post_build = _handlers(
    (-150, reader_hook.split_search_by_language),  # after i18n merged the indexes
)
