"""What the build refuses before anything is published (fault drill 4, groups A and E):
includes that leave snippets/, symbolic links, the machine in published files, script
and placeholders in prose, and two languages that disagree."""

from __future__ import annotations

import re

import pytest

from tools.core.errors import ToolError
from tools.core.repo import ROOT, SNIPPETS, check_text_files
from tools.downloads import hook as downloads
from tools.pages import checks
from tools.pages import parse as pages

HOOKS_PAGE = "pitfalls/hook-aliases.md"


def _fence(include: str) -> str:
    return f'``` cpp\n--8<-- "{include}"\n```\n'


def test_pymdownx_reads_only_the_include_folders():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    bases = re.search(r"base_path: \[(?P<list>[^\]]*)\]", config)["list"]
    written = [b.strip().removeprefix("!relative $config_dir").strip("/") for b in bases.split(",")]
    assert written == [p.relative_to(ROOT).as_posix() for p in pages.INCLUDE_BASES]


@pytest.mark.parametrize(
    "include, why",
    [
        ("../../../../../../../../etc/hostname", "climbs out with '..'"),
        ("/etc/passwd", "an absolute path"),
        (".git/config", ".git folder"),
        ("../.git/config", ".git folder"),
        ("../README.md", "climbs out with '..'"),
    ],
)
def test_an_include_outside_snippets_is_refused_with_what_happened(include, why):
    problems = checks.include_problems(_fence(include), "docs/en/x.md")
    assert problems and why in problems[0] and "docs/en/x.md: includes" in problems[0]
    assert "pages embed only files under snippets/" in problems[0]


def test_a_block_include_is_checked_too():
    md = "--8<--\npitfalls/hook-aliases/hooks.py\n/etc/passwd\n--8<--\n"
    assert any("'/etc/passwd', an absolute path" in p for p in checks.include_problems(md, "x.md"))


def test_a_symlink_out_of_snippets_is_refused_by_the_include_check_and_the_build():
    link = SNIPPETS / "pitfalls" / "hook-aliases" / "zz_test_notes.txt"
    link.symlink_to("/etc/passwd")
    try:
        problems = checks.include_problems(_fence("pitfalls/hook-aliases/zz_test_notes.txt"), "x.md")
        assert problems and "a symbolic link to /etc/passwd" in problems[0]
        with pytest.raises(ToolError, match=r"zz_test_notes.txt is a symbolic link .*rm snippets/"):
            check_text_files()
    finally:
        link.unlink()


def test_an_orphan_record_is_not_published():
    orphan = SNIPPETS / "pitfalls" / "hook-aliases" / "zz_orphan.out"
    orphan.write_text("not a record\n", encoding="utf-8")
    try:
        assert orphan not in downloads.published_snippet_files()
    finally:
        orphan.unlink()


def test_a_secret_in_a_download_is_refused(monkeypatch):
    monkeypatch.setenv("DRILL_DEPLOY_TOKEN", "ghs_0123456789abcdefXYZ")
    with pytest.raises(ToolError, match=r"the download downloads/x.py:2: holds .*\$DRILL_DEPLOY_TOKEN"):
        downloads.refuse_leaks({"downloads/x.py": "import torch\nprint('ghs_0123456789abcdefXYZ')\n"}, [])


def test_a_path_of_the_author_in_a_notebook_is_refused():
    notebook = '{"cells": [{"cell_type": "code", "source": ["CKPT = \\"/Users/alice/w.pt\\"\\n"]}]}'
    with pytest.raises(ToolError, match=r"/Users/alice/w.pt"):
        downloads.refuse_leaks({"downloads/x.ipynb": notebook}, [])


def test_the_published_files_carry_nothing_of_this_machine():
    downloads.refuse_leaks({}, downloads.published_snippet_files())


# --------------------------------------------------------------- zh/en parity (E1, E2, E7)
ZH, EN = pages.text("zh", HOOKS_PAGE), pages.text("en", HOOKS_PAGE)


def test_a_number_changed_in_one_language_is_named():
    problems = checks.parity_problems(HOOKS_PAGE, ZH, EN.replace("from 2 to 4", "from 2 to 6"))
    assert any(
        "different numbers in section #grad-alias: only in zh: 4; only in en: 6" in p for p in problems
    )


def test_a_claim_linked_in_one_language_only_is_named():
    problems = checks.parity_problems(HOOKS_PAGE, ZH, EN.replace("#s003-11", "#s003-12"))
    assert any("only in zh: fact-check.md#s003-11; only in en: fact-check.md#s003-12" in p for p in problems)


def test_a_warning_dropped_in_one_language_is_named():
    dropped = re.sub(r'!!! warning "Common misconception"\n(?:    .*\n)+', "", EN)
    problems = checks.parity_problems(HOOKS_PAGE, ZH, dropped)
    assert any("different boxes" in p and "'warning'" in p for p in problems)


def test_the_pages_agree_today():
    assert checks.language_parity() == []


@pytest.mark.parametrize(
    "text, lang, expected",
    [
        ("1 亿元素，约 0.5 秒", "zh", {"100000000", "0.5"}),
        ("100 million elements, about 0.5 s", "en", {"100000000", "0.5"}),
        ("the 75th minus the 25th percentile", "en", {"75", "25"}),
        ("10x smaller; see [s002-05](x.md#s002-05) and `x[3]`", "en", {"10"}),
        ("第 75 与第 25 百分位数之差，共 10 次", "zh", {"75", "25", "10"}),
    ],
)
def test_numbers_are_read_as_readers_read_them(text, lang, expected):
    assert checks.numbers(text, lang) == expected


# --------------------------------------------------------------- prose
@pytest.mark.parametrize("text", ["TODO: translate.", "TBD", "Translate this.", "待翻译", "FIXME"])
def test_placeholders_are_found(text):
    assert pages.untranslated(text)


@pytest.mark.parametrize(
    "text", ["we translate the tensor", 'the comment "TODO: kill it"', "`TODO`", "to do"]
)
def test_quoted_or_ordinary_words_are_not_placeholders(text):
    assert pages.untranslated(text) is None


def test_the_content_today_passes():
    assert checks.content_problems() == []
