"""What the build refuses, as plain functions that return the problems found (each
message names the file and says what to do); the hook ``tools/site/checks.py`` raises
them, the tests call them without building:

- ``missing_translations``: a page of the nav missing in one language;
- ``include_problems``: an include of a file or section that does not exist, or of a
  recorded output whose snippet changed since it was recorded (the record carries a
  hash of the code that produced it).
"""

from __future__ import annotations

import re
from pathlib import Path

from tools.core import sections
from tools.core.repo import DOCS, LANGS, rel
from tools.pages import parse as pages
from tools.snippets import stamp as record_stamp
from tools.snippets.records import REFRESH_HINT

_CUDA = re.compile(r"^#\s*requires\s*:.*\bcuda\b", re.M)

LANGUAGE_NAMES = {"zh": "Chinese", "en": "English"}


def nav_pages(nav) -> list[str]:
    """Every page file the nav lists, nested sections included."""
    out = []
    for item in nav or []:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                out.extend(nav_pages(value) if isinstance(value, list) else [value])
    return out


def missing_translations(nav) -> list[str]:
    problems = []
    for page in nav_pages(nav):
        if "://" in page:
            continue
        have = [lang for lang in LANGS if (DOCS / lang / page).is_file()]
        for lang in LANGS:
            if lang in have:
                continue
            twin = f" of docs/{have[0]}/{page}" if have else ""
            problems.append(
                f"docs/{lang}/{page} is missing: the {LANGUAGE_NAMES.get(lang, lang)} ({lang}) "
                f"translation{twin}. Every page exists in {' and '.join(LANGS)}: "
                f"write docs/{lang}/{page}, or remove the page from nav in mkdocs.yml."
            )
    return problems


def include_problems(markdown: str, where: str) -> list[str]:
    """Includes of missing files or sections, and records older than their snippet."""
    problems = []
    stamps_checked: set[Path] = set()  # one message per record, not one per section shown
    for inc in pages.includes(markdown):
        if not inc.path.is_file():
            problems.append(
                f"{where}: includes {inc.file}, which does not exist (snippets live under snippets/)"
            )
            continue
        if inc.section is not None:
            names = sections.names(inc.path.read_text(encoding="utf-8"))
            if inc.section not in names:
                problems.append(
                    f"{where}: includes section {inc.section!r} of {rel(inc.path)}, which has no "
                    f"such section; its sections are: {', '.join(names) or '(none)'}"
                )
                continue
        if inc.path.suffix == ".out" and inc.path not in stamps_checked:
            stamps_checked.add(inc.path)
            snippet = inc.path.with_suffix(".py")
            if not snippet.is_file():
                problems.append(f"{where}: {rel(inc.path)} is a record without its snippet {rel(snippet)}")
                continue
            reason = record_stamp.stale_reason(snippet, inc.path)
            if reason:
                if _CUDA.search(snippet.read_text(encoding="utf-8")):
                    how = "record it on a GPU machine (make outputs there, or run the gpu workflow)"
                else:
                    how = f"refresh it with: {REFRESH_HINT.format(path=rel(snippet))}"
                problems.append(f"{where}: the recorded output {rel(inc.path)} is stale: {reason}; {how}")
    return problems


def anchor_drift() -> list[str]:
    """Pages whose zh and en versions define different heading anchors: a link into
    one language would land nowhere in the other."""
    problems = []
    for page in pages.pages("zh"):
        if not (DOCS / "en" / page).is_file():
            continue
        zh, en = pages.anchors(pages.text("zh", page)), pages.anchors(pages.text("en", page))
        if zh != en:
            only_zh = [a for a in zh if a not in en]
            only_en = [a for a in en if a not in zh]
            problems.append(
                f"docs/zh/{page} and docs/en/{page} must define the same heading anchors "
                "{ #id } in the same order, so links work in both languages; "
                f"only in zh: {only_zh or '-'}, only in en: {only_en or '-'}"
                + ("" if only_zh or only_en else " (same anchors, another order)")
            )
    return problems


# What a reader would not write: it makes the run print nicely, not the lesson.
# An expected error is a '# raises: NAME Type' header; warnings, '# warns: NAME Type'
# (the runner records both); the recorder wraps long output; a benchmark summary is
# printed by code outside the shown section.
PLUMBING_MODULES = {"textwrap", "warnings", "json", "contextlib", "traceback"}


def plumbing(code: str) -> list[tuple[int, str]]:
    """(line in ``code``, what) for each piece of harness plumbing in shown code."""
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []  # a fragment; the build's own checks cover syntax
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]}
        else:
            names = set()
        for name in sorted(names & PLUMBING_MODULES):
            found.append((node.lineno, f"import {name}"))
        if isinstance(node, ast.Try):
            found.append((node.lineno, "try/except around an expected error"))
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in PLUMBING_MODULES
        ):
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return sorted(set(found))


PLUMBING_FIX = (
    "Shown code is the lesson: declare an expected error with a '# raises: NAME Type' header "
    "and warnings with '# warns: NAME Type' (the runner records them as the output), let the "
    "recorder wrap long lines, and keep data loading outside the shown section."
)
