"""MkDocs handlers: reuse the build's expensive, input-determined results (tools/core/cache.py).

- Highlighting: the HTML Pygments makes for a code block, keyed on the code, the
  lexer and every formatter option (pymdownx.highlight calls ``pygments.highlight``
  through its module global, which is what is wrapped). Its formatter classes are
  wrapped too, so that a formatter (whose stylesheet costs more than a hit) is made
  only on a miss.

A hit returns exactly what the wrapped call returned when it was stored; the
reproducible-build test runs on builds that use the cache.
Wired in by tools/site/hooks.py, first, so the wrappers are in place before
any page is rendered.
"""

from __future__ import annotations

import pymdownx.highlight

from tools.core import cache as build_cache

_HIGHLIGHT_VERSIONS = build_cache.version("pygments", "pymdown-extensions")


class _PendingFormatter:
    """A formatter's class and options, made into the formatter only when needed."""

    def __init__(self, cls, options: dict):
        self.cls, self.options = cls, options

    def make(self):
        return self.cls(**dict(self.options))


def _deferred(cls):
    def pending(**options):
        return _PendingFormatter(cls, options)

    pending.__wrapped__ = cls
    return pending


def _cached_highlight(highlight):
    def highlight_cached(code, lexer, formatter, outfile=None):
        pending = isinstance(formatter, _PendingFormatter)
        if outfile is not None:
            return highlight(code, lexer, formatter.make() if pending else formatter, outfile)
        cls = formatter.cls if pending else type(formatter)
        digest = build_cache.key(
            _HIGHLIGHT_VERSIONS,
            code,
            type(lexer).__qualname__,
            sorted(lexer.options.items()),
            cls.__module__,
            cls.__qualname__,
            "options as given" if pending else "options as kept",
            sorted((k, repr(v)) for k, v in formatter.options.items()),
        )
        html = build_cache.get("highlight", digest)
        if html is None:
            html = highlight(code, lexer, formatter.make() if pending else formatter)
            build_cache.put("highlight", digest, html)
        return html

    highlight_cached.__wrapped__ = highlight
    return highlight_cached


def _install() -> None:
    if not hasattr(pymdownx.highlight.highlight, "__wrapped__"):
        pymdownx.highlight.highlight = _cached_highlight(pymdownx.highlight.highlight)
        for name in ("BlockHtmlFormatter", "InlineHtmlFormatter"):
            setattr(pymdownx.highlight, name, _deferred(getattr(pymdownx.highlight, name)))


def use_build_cache(config):
    _install()
    return config
