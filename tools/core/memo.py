"""Readers whose answers last one build: ``per_build`` memoizes a function of files
that an author may edit while ``mkdocs serve`` runs, and ``forget_all`` drops every
such memo (the MkDocs hook calls it as each build starts). A package marks its own
readers; the hook needs to know none of them."""

from __future__ import annotations

from functools import cache

_MEMOS: list = []


def per_build(fn):
    """``functools.cache``, forgotten by ``forget_all``."""
    memo = cache(fn)
    _MEMOS.append(memo)
    return memo


def forget_all() -> None:
    for memo in _MEMOS:
        memo.cache_clear()
