"""What the build refuses, as plain functions that return the problems found (each
message names the file and says what to do); the hook ``tools/site/checks.py`` raises
them, the tests call them without building:

- ``missing_translations``: a page of the nav missing in one language;
- ``include_problems``: an include of a file or section that does not exist, or of a
  recorded output whose snippet changed since it was recorded (the record carries a
  hash of the code that produced it).
"""

from __future__ import annotations

import os
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


def _outside(path: str) -> str | None:
    """Why the include ``path`` (as written) would embed a file from outside the
    include folders, or None. Symlinks are resolved: a link that leaves counts."""
    bases = [os.path.realpath(b) for b in pages.INCLUDE_BASES]
    names = " or ".join(f"{rel(b)}/" for b in pages.INCLUDE_BASES)
    fix = (
        f"pages embed only files under {names} (paths written relative to it, e.g. "
        '"pitfalls/hook-aliases/hooks.py:cpu-noop"); put what the page shows into a snippet there.'
    )
    if ".git" in Path(path).parts:
        return f"a file of the repository's .git folder, which holds its remote URL and tokens: {fix}"
    if os.path.isabs(path) or re.match(r"^[A-Za-z]:[\\/]", path):
        return f"an absolute path: {fix}"
    for base in pages.INCLUDE_BASES:
        written = os.path.normpath(os.path.join(base, path))
        real = os.path.realpath(written)
        if any(real == b or real.startswith(b + os.sep) for b in bases):
            return None
        if os.path.exists(written) or os.path.islink(written):
            inside = any(written.startswith(str(b) + os.sep) for b in pages.INCLUDE_BASES)
            if inside:  # written inside, but a symlink (in its path) leads out
                return f"a symbolic link to {real}, outside {names}: {fix}"
            return f"outside {names} (it climbs out with '..'): {fix}"
    return None if ".." not in Path(path).parts else f"outside {names} (it climbs out with '..'): {fix}"


def include_safety_problems(markdown: str, where: str) -> list[str]:
    """Every file pymdownx.snippets would read for ``markdown`` stays inside the include
    folders (``tools.pages.parse.INCLUDE_BASES``): no absolute path, no '..' out, no
    symlink out, nothing of .git. Checked before pymdownx runs, which would follow a
    symlink and says only "could not be found" for a path it refuses."""
    problems = []
    for _, path in pages.include_targets(markdown):
        why = _outside(path)
        if why:
            problems.append(f"{where}: includes {path!r}, {why}")
    return problems


def include_problems(markdown: str, where: str) -> list[str]:
    """Includes of missing files or sections, and records older than their snippet
    (after ``include_safety_problems``: an include that leaves snippets/ is named
    first, and nothing else is said about it)."""
    problems = include_safety_problems(markdown, where)
    if problems:
        return problems
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


# --------------------------------------------------------------------------- zh/en parity
# Beyond includes, figures and anchors (tests/content/test_pages.py), the two languages of
# a page state the same numbers, link the same claims and pages, and keep the same boxes.
# reference/api.md differs by design: en renders the docstrings (mkdocstrings), zh
# translates them by hand, with notes of its own.
PARITY_EXEMPT = {"reference/api.md"}
_FENCED = re.compile(r"^(?P<i>[ \t]*)(?P<f>`{3,}|~{3,}).*?^(?P=i)(?P=f)[ \t]*$", re.M | re.S)
_ADMONITION = re.compile(r"^[ \t]*(?:!!!|\?\?\?\+?)[ \t]+(?P<kind>[\w-]+)", re.M)
_PAGE_LINK = re.compile(r"\]\((?P<target>[^)\s]+?\.md(?:#[-\w]+)?)\)")
_HEADING = re.compile(r"^#{1,6} .*\{\s*#(?P<id>[-\w]+)\s*\}")
_SCALED = {
    "zh": (re.compile(r"(\d+(?:\.\d+)?)\s*(亿|万)"), {"亿": 10**8, "万": 10**4}),
    "en": (
        re.compile(r"(\d+(?:\.\d+)?)\s*(billion|million|thousand)\b"),
        {"billion": 10**9, "million": 10**6, "thousand": 10**3},
    ),
}
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.\-])(\d+(?:[.,]\d+)*)(?:st|nd|rd|th|x|×)?(?![A-Za-z0-9_])")
# 0 and 1 are often words ("zero", "all ones", 一个): comparing them would flag style.
_WORDLIKE = {"0", "1"}


def _prose(md: str) -> str:
    """What a reader reads as text: no front matter, code, includes, comments, link
    targets, URLs, attribute lists or claim ids."""
    md = re.sub(r"\A---\n.*?\n---\n", "", md, flags=re.S)
    md = _FENCED.sub("", md)
    md = re.sub(r"<!--.*?-->", " ", md, flags=re.S)
    md = re.sub(r"\]\([^)\n]*\)", "]", md)  # link targets (before URLs: Chinese has no spaces)
    for pattern in (r"(`+).+?\1", r"https?://[^\s)<>\u3000-\u303f\uff00-\uffef]+", r"\{[^}\n]*\}"):
        md = re.sub(pattern, " ", md)
    md = re.sub(r"--8<--.*|!\[[^\]\n]*\]", " ", md)
    return re.sub(r"\bs\d{3}-\d{2}\b", " ", md)


def numbers(md: str, lang: str) -> set[str]:
    """The numbers a page's prose states (``100 million`` and ``1 亿`` alike)."""
    text = _prose(md)
    found = set()
    pattern, scale = _SCALED[lang]
    for m in pattern.finditer(text):
        value = float(m[1]) * scale[m[2]]
        found.add(str(int(value)) if value.is_integer() else str(value))
    text = pattern.sub(" ", text)
    found |= {m[1].replace(",", "") for m in _NUMBER.finditer(text)}
    return found - _WORDLIKE


def _by_section(md: str) -> dict[str | None, str]:
    out: dict[str | None, list[str]] = {None: []}
    current = None
    for line in md.splitlines():
        m = _HEADING.match(line)
        if m:
            current = m["id"]
            out.setdefault(current, [])
        else:
            out[current].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def _link_targets(md: str, page: str) -> list[str]:
    """Pages and anchors a page links to, as paths under docs/<lang>/ (the glossary
    aside: a term is linked where a language needs it)."""
    out = []
    for m in _PAGE_LINK.finditer(_FENCED.sub("", md)):
        path, _, anchor = m["target"].partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(page), path))
        if target != "glossary.md":
            out.append(target + (f"#{anchor}" if anchor else ""))
    return sorted(out)


def parity_problems(page: str, zh: str, en: str) -> list[str]:
    """How the zh and en versions of ``page`` disagree in numbers (per section),
    links to claims and pages, and admonition boxes."""
    if page in PARITY_EXEMPT:
        return []
    where = f"docs/zh/{page} and docs/en/{page}"
    problems = []
    zs, es = _by_section(zh), _by_section(en)
    for section in zs.keys() & es.keys():
        a, b = numbers(zs[section], "zh"), numbers(es[section], "en")
        # a number in one language only may be a word in the other ("ten times", "三篇",
        # "April"): what is refused is a number that stands where the other has another
        if a - b and b - a:
            name = f"section #{section}" if section else "the opening"
            problems.append(
                f"{where} state different numbers in {name}: only in zh: "
                f"{', '.join(sorted(a - b)) or '-'}; only in en: {', '.join(sorted(b - a)) or '-'}. "
                "A number changed in one language changes in the other (write it with digits in both)."
            )
    lz, le = _link_targets(zh, page), _link_targets(en, page)
    if lz != le:
        only_zh = sorted(set(lz) - set(le)) or [t for t in lz if lz.count(t) > le.count(t)]
        only_en = sorted(set(le) - set(lz)) or [t for t in le if le.count(t) > lz.count(t)]
        problems.append(
            f"{where} link different pages or claims: only in zh: {', '.join(only_zh) or '-'}; "
            f"only in en: {', '.join(only_en) or '-'}. Both languages cite the same claims and pages."
        )
    kz = [m["kind"] for m in _ADMONITION.finditer(_FENCED.sub("", zh))]
    ke = [m["kind"] for m in _ADMONITION.finditer(_FENCED.sub("", en))]
    if kz != ke:
        problems.append(
            f"{where} have different boxes (admonitions, in order): zh {kz}, en {ke}. A warning "
            "or note in one language is in the other too, of the same kind."
        )
    return problems


def language_parity() -> list[str]:
    problems = []
    for page in pages.pages("zh"):
        if (DOCS / "en" / page).is_file():
            problems += parity_problems(page.as_posix(), pages.text("zh", page), pages.text("en", page))
    return problems


# --------------------------------------------------------------------------- unsafe content
TEXT_SOURCES = ("docs/**/*.md", "data/**/*.yml")


def prose_problems(path: Path) -> list[str]:
    """Script a browser could run, and placeholders, in one page or data file."""
    from tools.core import escape
    from tools.core.repo import read_text

    text = read_text(path)
    problems = [
        f"{rel(path)}:{no}: holds {what}. {escape.EXECUTABLE_FIX}" for no, what in escape.executable(text)
    ]
    for no, line in enumerate(text.splitlines(), 1):
        if path.suffix == ".yml" and line.lstrip().startswith("#"):
            continue  # a comment of the data file, not published
        placeholder = pages.untranslated(line)
        if placeholder:
            problems.append(
                f"{rel(path)}:{no}: {placeholder!r} marks text nobody has written yet; "
                "write it (in both languages) before it is published."
            )
    return problems


def content_problems() -> list[str]:
    """Page and data prose: nothing a browser could run (``tools.core.escape``), no
    placeholder (TODO, TBD, 待翻译), and zh/en parity (``language_parity``)."""
    from tools.chapters.factcheck.load import load_claims
    from tools.core.errors import ToolError
    from tools.core.repo import ROOT

    problems = []
    for pattern in TEXT_SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            problems += prose_problems(path)
    try:  # verdicts and their reasons, and the pages' boxes: before any page is built
        load_claims()
    except ToolError as err:
        problems.append(str(err))
    return problems + language_parity()


def refuse_unsafe_content(config=None):
    """The build's pre-build check (wired in tools/site/hooks.py)."""
    from tools.core.errors import ToolError

    problems = content_problems()
    if problems:
        raise ToolError("\n".join(problems))
    return config


def executable_html_problems(html_text: str, where: str) -> list[str]:
    """Anything executable in a page's content HTML (not the theme's templates): the
    last line of defence when data or Markdown slipped past the checks above."""
    from tools.core import escape

    return [
        f"{where}: the page's HTML holds {what}. {escape.EXECUTABLE_FIX}"
        for _, what in escape.executable(html_text)
    ]


def refuse_executable_html(html_text: str, page, config, files) -> str:
    """on_page_content handler (wired in tools/site/hooks.py)."""
    from tools.core.errors import ToolError

    problems = executable_html_problems(html_text, f"docs/{page.file.src_uri}")
    if problems:
        raise ToolError("\n".join(dict.fromkeys(problems)))
    return html_text
