"""Errors under ``mkdocs serve``: shown in the browser, at the top of every page (and
in the terminal), while the server keeps serving. MkDocs would otherwise hold every
request until the fix; the next save rebuilds as usual. Used by tools/site/hooks.py."""

from __future__ import annotations

import html
import os
import sys

_SERVING = "DETACH_SITE_SERVING"  # set at startup, read by every later build
_errors: list[str] = []  # this build's errors; cleared as each build starts


def note_command(command: str, **_) -> None:
    """on_startup: remember that this process serves (rebuilds read it)."""
    if command == "serve":
        os.environ[_SERVING] = "1"


def serving() -> bool:
    return bool(os.environ.get(_SERVING))


def new_build() -> None:
    _errors.clear()  # a rebuild after the fix shows the page again


def remember(message: str, args: tuple, blank: bool):
    """Remember the error, tell the terminal, go on with the input (a page's Markdown
    is dropped when ``blank``: what follows would fail on it again)."""
    if message not in _errors:
        _errors.append(message)
        print(f"ERROR (shown at the top of every page) - {message}", file=sys.stderr)
    if blank:
        return ""
    return args[0] if args else None


def error_box(output: str, page=None, config=None) -> str:
    """on_post_page: this build's errors above the article."""
    if not _errors:
        return output
    text = "\n\n".join(html.escape(e) for e in _errors)
    box = (
        '<div class="admonition failure build-error"><p class="admonition-title">'
        f"Build error (mkdocs serve) — fix it and save</p><pre>{text}</pre></div>"
    )
    return output.replace("<article", box + "<article", 1)
