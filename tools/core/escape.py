"""Data that reaches a page: escaped by one helper, URLs checked as URLs, and nothing
executable let through.

Text from the data files (``data/*.yml``) is of two kinds:

- **plain text** (a quoted question, a claim's section, quote and reason, a pin's
  ``only``): ``plain`` shows every character as itself, in Markdown and in HTML;
- **Markdown** the data's authors write (FAQ titles, answers and notes, the words of
  a torch-version difference): ``markdown_problems`` refuses HTML in it (outside code
  spans) and any link that is not a page of the site or an http(s) address.

``url`` checks an address as an address (http or https, a host, no characters that
close a Markdown link or an HTML attribute). ``executable`` finds what would run in a
reader's browser (``<script``, ``on…=`` handlers, ``javascript:`` URLs, frames and
objects): the build refuses it in page and data prose (``tools.pages.checks``) and,
as the last line of defence, in the HTML of every page's content.
"""

from __future__ import annotations

import html
import re

from tools.core.errors import ToolError

# Markdown's inline syntax and the table separator, shown as themselves.
_MARKDOWN = "`*_[]|#"


def plain(text: str) -> str:
    """``text`` shown exactly as written, in a Markdown paragraph, list item, table cell
    or heading, and in the HTML made from it: no tag, entity or Markdown syntax."""
    text = str(text).replace("\\", "\\\\").replace("&", "&amp;")
    text = text.replace("<", "&lt;").replace(">", "&gt;")  # Markdown cannot escape "<"
    for ch in _MARKDOWN:
        text = text.replace(ch, "\\" + ch)
    return " ".join(text.split())


def attribute(text: str) -> str:
    """``text`` inside a double-quoted HTML attribute."""
    return html.escape(str(text), quote=True)


def code(text: str) -> str:
    """``text`` inside ``<code>`` (HTML)."""
    return html.escape(str(text), quote=False)


# http(s), a host (letters, digits, dots, hyphens; a port), then a path, query and
# fragment without whitespace, quotes, angle brackets, parentheses or backslashes:
# nothing that could close a Markdown link or an HTML attribute.
URL = re.compile(
    r"^https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:[/?#][^\s<>\"'()\\`]*)?$"
)


def url_problem(value: object) -> str | None:
    """Why ``value`` is not a safe http(s) address, or None."""
    text = str(value)
    if URL.match(text):
        return None
    if not re.match(r"^https?://", text, re.I):
        return f"{text!r} must be an http(s) address (https://...)"
    bad = sorted({c for c in text if c.isspace() or c in "<>\"'()\\`"})
    shown = " ".join(repr(c) for c in bad) or "its host"
    return (
        f"{text!r} is not a plain address: it holds {shown}. Copy the address from the "
        "browser's address bar (characters such as ( ) < > and quotes are written %28 %29 "
        "%3C %3E %22 there)"
    )


def url(value: object, where: str) -> str:
    """The address, or a ToolError naming ``where`` and what is wrong."""
    problem = url_problem(value)
    if problem:
        raise ToolError(f"{where}: {problem}.")
    return str(value)


# --------------------------------------------------------------------------- executable
_TAGS = r"script|iframe|frame|frameset|object|embed|applet|base|form|meta|link|style"
_EXECUTABLE = [
    (re.compile(rf"<\s*/?\s*(?:{_TAGS})\b", re.I), "a <{0}> tag"),
    (re.compile(r"<[A-Za-z][^<>]*?[\s/\"'](on[a-z]+)\s*=", re.I), "an event handler attribute ({0}=)"),
    (re.compile(r"\b(javascript|vbscript|livescript)\s*:", re.I), "a {0}: URL"),
    (re.compile(r"\bdata\s*:\s*text/html", re.I), "a data:text/html URL"),
    (re.compile(r"\bsrcdoc\s*=", re.I), "an srcdoc= attribute"),
]


def _normalized(text: str) -> str:
    """Entities decoded and control characters dropped, as a browser reads a URL
    (``java&#x09;script:`` is ``javascript:``)."""
    return re.sub(r"[\x00-\x20]+(?=[A-Za-z]*:)|&(?:tab|newline);", "", html.unescape(text), flags=re.I)


_URL_ATTRIBUTE = re.compile(
    r"<[A-Za-z][^<>]*?[\s/\"'](?:href|src|action|formaction|data|poster|background|xlink:href)\s*=\s*"
    r"(?P<q>[\"']?)(?P<value>[^\"'>\s]*(?(q)[^\"'>]*))",
    re.I,
)


def executable(text: str, html_mode: bool = False) -> list[tuple[int, str]]:
    """(line number, what) for everything in ``text`` that a browser could run.

    Source mode (page and data prose): a tag, handler or script URL anywhere, entities
    decoded too (``java&#x09;script:``). HTML mode (a built page): only real tags and
    attributes count; escaped text (``&lt;script&gt;``) is inert.
    """
    found = []
    for no, line in enumerate(text.splitlines(), 1):
        if html_mode:
            candidates = [(line, _EXECUTABLE[:2] + _EXECUTABLE[4:])]
            for m in _URL_ATTRIBUTE.finditer(line):
                value = _normalized(m["value"])
                candidates.append((value, _EXECUTABLE[2:4]))
        else:
            candidates = [(c, _EXECUTABLE) for c in dict.fromkeys((line, _normalized(line)))]
        for candidate, patterns in candidates:
            for pattern, what in patterns:
                m = pattern.search(candidate)
                if m:
                    name = (m.group(1) if m.groups() else m.group(0)).strip("<>/ ").lower()
                    found.append((no, what.format(re.sub(r"\s+", "", name))))
    return list(dict.fromkeys(found))


EXECUTABLE_FIX = (
    "Pages and data hold text, never script: write what you mean in Markdown (a link is "
    "[text](https://...) or [text](page.md#anchor)); quote code in `backticks`."
)

# --------------------------------------------------------------------------- Markdown data
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_HTML_TAG = re.compile(r"</?[A-Za-z!?][^<>]*>")
_LINK = re.compile(r"\]\(\s*<?([^)\s>]*)|<(https?://[^>]*)>")


def markdown_problems(text: str) -> list[str]:
    """What Markdown written in a data file must not hold: HTML outside code spans (it
    reaches the page as it is), or a link that is neither a page of the site
    (``page.md#anchor``, relative) nor an http(s) address."""
    problems = [f"{what} (line {no})" for no, what in executable(text)]
    prose = _CODE_SPAN.sub("", str(text))
    for m in _HTML_TAG.finditer(prose):
        if re.match(r"^<https?://", m.group(0)):
            continue  # a Markdown autolink; the address is checked below
        problems.append(f"HTML {m.group(0)[:40]!r}: write Markdown; HTML from data is not published")
    for m in _LINK.finditer(prose):
        target = m.group(1) if m.group(1) is not None else m.group(2)
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target) and url_problem(target):
            problems.append(f"the link {target!r}: {url_problem(target)}")
    return list(dict.fromkeys(problems))
