"""Every output block on a page is the recorded output of the code block right above
it, and every include names a section its file has."""

from __future__ import annotations

import re

import pytest

from tools import pages

PAGES = [(lang, page) for lang in pages.LANGS for page in pages.pages(lang)]
_OUTPUT_TITLE = re.compile(r"""title=["'](输出|Output)["']""")
_SECTION = re.compile(r"^#\s*-{1,}8<-{1,}\s+\[\s*start\s*:\s*(?P<name>[-_0-9a-z]+)\s*\]\s*$", re.M)


def _is_output(info: str, includes: list[pages.Include]) -> bool:
    word = info.split(" ", 1)[0].lower() if info else ""
    return (
        word in ("", "text", "txt", "output", "console-output")
        or bool(_OUTPUT_TITLE.search(info))
        or any(i.file.endswith(".out") for i in includes)
    )


def pairing_problems(lang: str, page) -> list[str]:
    """Output blocks that are typed, or that show another section's record."""
    problems = []
    code = None  # (line, includes) of the last Python block
    shown_for_code = False
    for line, info, body in pages.fences(pages.text(lang, page)):
        where = f"docs/{lang}/{page}:{line}"
        includes = pages.includes(body)
        if pages.is_python(info):
            code, shown_for_code = (line, includes), False
            continue
        if not _is_output(info, includes):
            continue  # shell commands, quoted C++ source: typed on purpose
        typed = [s for s in body.splitlines() if s.strip() and "--8<--" not in s]
        if typed or len(includes) != 1 or not includes[0].file.endswith(".out"):
            problems.append(
                f"{where}: an output block must be exactly one include of a recorded output, "
                f'e.g. --8<-- "x/y.out:section" (typed text is refused; quote source code in '
                f"a block of its language, e.g. ```cpp)"
            )
            continue
        shown = includes[0]
        if code is None:
            problems.append(f"{where}: output block {shown.file}:{shown.section} has no code block above it")
            continue
        expected = [
            (i.file[: -len(".py")] + ".out", i.section) for i in code[1] if i.file.endswith(".py")
        ][-1:]
        if (shown.file, shown.section) not in expected:
            want = f"{expected[0][0]}:{expected[0][1]}" if expected else "(the code block embeds no snippet)"
            problems.append(
                f"{where}: this output block shows {shown.file}:{shown.section}, but the code block "
                f"above it (line {code[0]}) is {want.replace('.out:', '.py:')}; show "
                f'--8<-- "{want}" or move the block under its code'
            )
        elif shown_for_code:
            problems.append(f"{where}: a second output block for the code block at line {code[0]}")
        shown_for_code = True
    return problems


@pytest.mark.parametrize("lang, page", PAGES, ids=[f"{lang}/{page}" for lang, page in PAGES])
def test_each_output_block_is_the_record_of_the_code_above_it(lang, page):
    problems = pairing_problems(lang, page)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def section_problems(lang: str, page) -> list[str]:
    problems = []
    for inc in pages.includes(pages.text(lang, page)):
        where = f"docs/{lang}/{page}"
        if not inc.path.is_file():
            problems.append(f"{where}: includes {inc.file}, which does not exist (snippets live under snippets/)")
            continue
        if inc.section is None:
            continue
        names = _SECTION.findall(inc.path.read_text(encoding="utf-8"))
        if inc.section not in names:
            problems.append(
                f"{where}: includes section {inc.section!r} of {inc.path.relative_to(pages.ROOT).as_posix()}, which has no such "
                f"section; its sections are: {', '.join(names) or '(none)'}"
            )
    return problems


@pytest.mark.parametrize("lang, page", PAGES, ids=[f"{lang}/{page}" for lang, page in PAGES])
def test_every_included_section_exists(lang, page):
    problems = section_problems(lang, page)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
