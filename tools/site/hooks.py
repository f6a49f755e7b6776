"""The site's one MkDocs hook (``hooks:`` in mkdocs.yml): every handler, in order.

Each ``on_<event>`` below lists its handlers with their priority. MkDocs runs higher
priorities first; at equal priority, plugins (search, autorefs, mkdocstrings) run
before these handlers and these run in the order written. mkdocs-static-i18n runs at
50 (page_markdown) and -100 (config, post_build), and its second language is a whole
second build. The feature code lives in its package; this module only wires it, and
turns a ``ToolError`` (bad input, with a message naming the file) into a build error
without a traceback.
"""

from __future__ import annotations

import functools
import importlib
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent

# MkDocs loads a hook by its path, with only its own folder on sys.path.
_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tools.chapters.changelog import hook as changelog  # noqa: E402
from tools.chapters.factcheck import hook as factcheck  # noqa: E402
from tools.chapters.faq import hook as faq  # noqa: E402
from tools.chapters.pins import hook as pins  # noqa: E402
from tools.core.errors import ToolError  # noqa: E402
from tools.downloads import hook as downloads  # noqa: E402
from tools.figures import hook as figures  # noqa: E402
from tools.site import cache_hook, checks, reader_hook, theme  # noqa: E402
from tools.versions import hook as versions  # noqa: E402

# MkDocs runs this file afresh on every config load (each `mkdocs serve` rebuild);
# the handlers' state starts afresh with it.
for _module in (changelog, factcheck, faq, pins, downloads, figures, reader_hook, versions):
    importlib.reload(_module)


def _handlers(*table):
    """One event's handlers from (priority, handler) pairs, errors explained."""

    def explained(priority, handler):
        @functools.wraps(handler)
        def run(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except ToolError as err:
                raise PluginError(str(err)) from None

        run.mkdocs_priority = priority
        return run

    return CombinedEvent(*(explained(p, h) for p, h in table))


on_startup = _handlers(
    (0, theme.date_build_from_commit),  # SOURCE_DATE_EPOCH: reproducible builds
)

on_config = _handlers(
    (100, checks.refuse_missing_translations),  # before i18n builds a language
    (0, cache_hook.use_build_cache),
    (0, reader_hook.require_search_words),
    (-200, theme.localize_mkdocstrings),  # after i18n (-100) set the language
)

on_pre_build = _handlers(
    (0, theme.forget_earlier_builds),
    (0, figures.build_figures),
    (0, factcheck.load_claims),
    (0, versions.load_results),
    (0, faq.load_questions),
    (0, pins.load_pins),
)

on_files = _handlers(
    (-200, figures.add_figure_files),  # after i18n (-100) rebuilt the file list
    (-200, downloads.add_download_files),
)

on_env = _handlers(
    (0, theme.cache_theme_templates),
)

on_page_markdown = _handlers(
    (110, faq.render_faq_page),  # first: everything after sees the rendered page
    (100, checks.refuse_bad_includes),  # before pymdownx.snippets expands them
    (0, theme.cache_mkdocstrings_templates),
    (0, factcheck.insert_fact_check_table),
    (0, changelog.insert_changelog),
    (0, versions.add_version_notes),
    (0, downloads.fill_run_page_placeholders),
    (0, pins.add_pin_lines),
)

on_page_content = _handlers(
    (0, reader_hook.shape_content_html),
    (0, downloads.add_download_bar_and_links),
)

on_post_page = _handlers(
    (-150, reader_hook.finish_page_html),  # after i18n wrote its tags
)

on_post_template = _handlers(
    (0, reader_hook.keep_default_404),
)

on_post_build = _handlers(
    (-150, reader_hook.split_search_by_language),  # after i18n merged the indexes
)
