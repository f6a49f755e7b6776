"""Every output block on a page is the recorded output of the code block right above
it, every include names a section its file has, and every shown record was made from
its snippet as it is now."""

from __future__ import annotations

import re

import pytest

from tools.pages import checks as page_checks
from tools.pages import parse as pages

PAGES = [(lang, page) for lang in pages.LANGS for page in pages.pages(lang)]
_OUTPUT_TITLE = re.compile(r"""title=["'](输出|Output)["']""")


def _is_output(info: str, includes: list[pages.Include]) -> bool:
    word = info.split(" ", 1)[0].lower() if info else ""
    return (
        word in ("", "text", "txt", "output", "console-output")
        or bool(_OUTPUT_TITLE.search(info))
        or any(i.file.endswith(".out") for i in includes)
    )


# A fence that is neither Python nor an output holds shell commands or quoted source.
# A shell fence holds only commands and comments: a line that is not one is typed
# output (a reader would take it for what the command prints on their machine).
QUOTED_SOURCE = ("cpp", "c++", "c")
COMMANDS = {
    "make", "python", "python3", "pip", "source", "mkdir", "cd", "curl", "jupyter",
    "git", "nox", "export", "ls", "cat", "nvidia-smi", "uv", "conda",
}  # fmt: skip
_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")


def _generated_command(line: str) -> bool:
    """An include of a command line the build writes (generated/: the site's address,
    the wheel's name), e.g. on the Run-the-code page."""
    from tools.build.generate import GENERATED

    includes = pages.includes(line)
    return len(includes) == 1 and includes[0].path.is_relative_to(GENERATED)


def _typed_shell_lines(body: str) -> list[str]:
    out = []
    continued = False
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith("$ "):
            line = line[2:].strip()
        if not line or line.startswith("#") or continued:
            continued = line.endswith("\\")
            continue
        if _generated_command(line):
            continue
        words = line.split()
        while words and _ASSIGNMENT.match(words[0]):
            words = words[1:]  # VAR=value before a command, or alone
        first = words[0] if words else ""
        if words and first not in COMMANDS and not first.startswith((".venv/", "./")):
            out.append(raw.strip())
        continued = line.endswith("\\")
    return out


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
            word = info.split(" ", 1)[0].lower()
            typed = [] if word in QUOTED_SOURCE else _typed_shell_lines(body)
            if typed:
                problems.append(
                    f"{where}: this ```{word} block holds {typed[0]!r}, which is not a shell "
                    "command: typed output is refused. Show output as the include of a "
                    "recorded output under the code that prints it; if it is a command, add "
                    "its name to COMMANDS in tests/content/test_records.py."
                )
            continue  # shell commands, quoted C++ source: typed on purpose
        expected = [
            (i.file[: -len(".py")] + ".out", i.section)
            for i in (code[1] if code else [])
            if i.file.endswith(".py")
        ][-1:]
        want = f"{expected[0][0]}:{expected[0][1]}" if expected else None
        typed = [s for s in body.splitlines() if s.strip() and "--8<--" not in s]
        if typed or len(includes) != 1 or not includes[0].file.endswith(".out"):
            example = f'--8<-- "{want}"' if want else '--8<-- "x/y.out:section"'
            problems.append(
                f"{where}: an output block must be exactly one include of a recorded output "
                f"(typed output is refused), here: {example}. Quote source code from elsewhere "
                "in a block of its language, e.g. ```cpp"
            )
            continue
        shown = includes[0]
        if code is None:
            problems.append(f"{where}: output block {shown.file}:{shown.section} has no code block above it")
            continue
        if (shown.file, shown.section) not in expected:
            want = want or "(the code block embeds no snippet)"
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


@pytest.mark.parametrize("lang, page", PAGES, ids=[f"{lang}/{page}" for lang, page in PAGES])
def test_includes_resolve_and_records_match_their_code(lang, page):
    """What the build refuses (tools/pages/checks.py), checked without building: every
    included section exists, and every shown record was made from the snippet as it is."""
    problems = page_checks.include_problems(pages.text(lang, page), f"docs/{lang}/{page}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_build_refuses_a_missing_translation():
    nav = pages.mkdocs_config()["nav"]
    assert page_checks.missing_translations(nav) == []
    problems = page_checks.missing_translations([*nav, "only-in-zh.md"])
    assert any("docs/en/only-in-zh.md is missing: the English (en) translation" in p for p in problems)
