"""The pattern chapter's pages, rendered from the validated data (``tools.chapters.patterns.load``).

``render_page(model, lang, key)`` and ``render_index(model, lang)`` give the Markdown;
``pages()`` maps every generated page under ``docs/<lang>/patterns/`` to it, ``stale()``
lists the committed pages that differ and ``write()`` rewrites them. The pages are
committed, so the page tests, the build and a reader's checkout all see the same files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tools.chapters.patterns.load import PATTERNS_DIR, Page, Pattern, Patterns, Section, load
from tools.core import generated
from tools.core.i18n import UI
from tools.core.repo import DOCS, LANGS
from tools.pages import parse as page_files

WRITE_HINT = ".venv/bin/python -m tools patterns write"
LABELS = UI["patterns"]
INDEX = UI["patterns.index"]


def _rel(target: str, from_page: str) -> str:
    page, _, anchor = target.partition("#")
    rel = os.path.relpath(page, os.path.dirname(from_page) or ".")
    return rel + (f"#{anchor}" if anchor else "")


def _heading(lang: str, target: str) -> str:
    """The text of the heading ``target`` (``section/page.md#anchor``) points to; the
    page's title when the anchor is not a heading of its own."""
    page, _, anchor = target.partition("#")
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    m = re.search(rf"^#+ (.+?) \{{ #{re.escape(anchor)} \}}\s*$", text, re.M)
    return m[1] if m else page_files.title(lang, page)


def _link(target: str, lang: str, from_page: str) -> str:
    """``[heading it points to](relative link)`` for ``section/page.md#anchor``."""
    return f"[{_heading(lang, target)}]({_rel(target, from_page)})"


def _front(description: str, title: str, lang: str) -> list[str]:
    return [
        "---",
        f"description: {description}",
        "---",
        "",
        f"# {title}",
        "",
        f"<!-- {LABELS[lang]['generated'].format(cmd=WRITE_HINT)} -->",
        "",
    ]


def _code(s: Section, lang: str) -> list[str]:
    """A section's code block, its annotations, and its output when it printed any."""
    out = s.include.removesuffix(".py") + ".out"
    parts = [f'``` python title="{s.ref.partition(":")[0]}"', f'--8<-- "{s.include}:{s.name}"', "```", ""]
    if s.notes[lang]:
        parts += [f"{n}.  {note}" for n, note in enumerate(s.notes[lang], 1)] + [""]
    record = page_files.ROOT / "snippets" / out
    if _printed(record, s.name):
        parts += [f'``` text title="{LABELS[lang]["output"]}"', f'--8<-- "{out}:{s.name}"', "```", ""]
    return parts


def _printed(record: Path, name: str) -> bool:
    from tools.core import sections as markers

    return bool(markers.named(record.read_text(encoding="utf-8"), str(record)).get(name, "").strip())


def _repos(p: Pattern, lang: str) -> list[str]:
    lab = LABELS[lang]
    items = [
        f"- [{r.repo}]({r.url})：`{r.path}`，{lab['line'].format(line=r.line)}"
        if lang == "zh"
        else f"- [{r.repo}]({r.url}): `{r.path}`, {lab['line'].format(line=r.line)}"
        for r in p.repos
    ]
    return [lab["used_in"], "", *items, ""]


def _pattern(p: Pattern, lang: str, page: str) -> list[str]:
    lab = LABELS[lang]
    parts = [f"## {p.title[lang]} {{ #{p.id} }}", "", f"**{lab['answer']}{p.answer[lang]}", ""]
    parts += [lab["idiom"], "", *_code(p.idiom, lang)]
    parts += [f"**{lab['without']}{p.failure_text[lang]}", ""]
    if p.failure is not None:
        parts += _code(p.failure, lang)
    if p.failure_see:
        parts += [lab["failure_see"] + _link(p.failure_see, lang, page), ""]
    parts += _repos(p, lang)
    if p.see:
        parts += [lab["see"] + lab["sep"].join(_link(s, lang, page) for s in p.see), ""]
    return parts


def _table(patterns: list[Pattern], lang: str, prefix: str = "") -> list[str]:
    lab = LABELS[lang]
    rows = [f"| [{p.title[lang]}]({prefix}#{p.id}) | {p.how} |" for p in patterns]
    return [f"| {lab['table_pattern']} | {lab['table_how']} |", "|---|---|", *rows, ""]


def _sources(patterns: list[Pattern], lang: str) -> list[str]:
    lab = LABELS[lang]
    rows = [f"| [{p.title[lang]}](#{p.id}) | `{p.search['string']}` | {p.search['hits']} |" for p in patterns]
    head = f"| {lab['sources_pattern']} | {lab['sources_search']} | {lab['sources_hits']} |"
    return [f"## {lab['sources']}", "", lab["sources_text"], "", head, "|---|---|---|", *rows, ""]


def render_page(model: Patterns, lang: str, key: str) -> str:
    """The Markdown of one page: what its patterns stop, the shared set-up, then each
    pattern (answer, idiom, failure, repositories); the sources last."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    if key not in model.pages:
        raise ValueError(f"unknown page {key!r}; known: {list(model.pages)}.")
    page: Page = model.pages[key]
    path = f"{PATTERNS_DIR}/{key}.md"
    patterns = model.on(key)
    lab = LABELS[lang]
    parts = _front(page.description[lang], page.title[lang], lang)
    parts += [page.intro[lang], "", *_table(patterns, lang)]
    parts += [f"## {lab['setup']}", "", lab["setup_text"], "", *_code(page.setup, lang)]
    for p in patterns:
        parts += _pattern(p, lang, path)
    parts += _sources(patterns, lang)
    return "\n".join(parts)


def render_index(model: Patterns, lang: str) -> str:
    """The chapter's index: every pattern by area, linked to its entry; how they were chosen."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    t = INDEX[lang]
    parts = _front(t["description"], t["title"], lang)
    parts += [t["lead"].format(n=len(model.patterns)), "", f"## {t['by_page']}", ""]
    for key, page in model.pages.items():
        parts += [f"**[{page.title[lang]}]({key}.md)**", "", *_table(model.on(key), lang, f"{key}.md")]
    parts += [f"## {t['method']}", "", t["method_text"], ""]
    return "\n".join(parts)


def pages(model: Patterns) -> dict[Path, str]:
    """Every generated page: docs path -> Markdown."""
    out: dict[Path, str] = {}
    for lang in LANGS:
        out[DOCS / lang / PATTERNS_DIR / "index.md"] = render_index(model, lang)
        for key in model.pages:
            out[DOCS / lang / PATTERNS_DIR / f"{key}.md"] = render_page(model, lang, key)
    return out


def stale(model: Patterns | None = None) -> list[str]:
    """Generated pages whose committed file differs from the data (repo-relative)."""
    return generated.stale(pages(model or load()), PATTERNS_DIR, "page")


def write() -> list[Path]:
    """Rewrite the generated pages that differ from the data; return those written."""
    return generated.write(pages(load()))
