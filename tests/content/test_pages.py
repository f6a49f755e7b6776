"""Both languages have every page, embed the same snippets and figures, and every
snippet and figure is used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.core import escape
from tools.core.repo import CJK, rel
from tools.figures import build as fig_tools
from tools.pages import parse as pages
from tools.pages.checks import PLUMBING_FIX, nav_pages, parity_problems, plumbing
from tools.pages.code import page_code
from tools.snippets.source import all_snippets

ZH, EN = pages.pages("zh"), pages.pages("en")


def test_every_page_exists_in_both_languages():
    zh, en = set(ZH), set(EN)
    assert not zh - en, f"Pages with no English twin (add docs/en/...): {sorted(map(str, zh - en))}"
    assert not en - zh, f"Pages with no Chinese twin (add docs/zh/...): {sorted(map(str, en - zh))}"


def test_nav_lists_every_page():
    config = pages.mkdocs_config()
    listed = set(nav_pages(config["nav"]))
    missing = sorted(str(p) for p in ZH if str(p) not in listed)
    assert not missing, f"Pages missing from nav in mkdocs.yml: {missing}"
    dangling = sorted(p for p in listed if Path(p) not in set(ZH))
    assert not dangling, f"nav entries with no page under docs/zh/: {dangling}"


@pytest.mark.parametrize("page", ZH, ids=str)
def test_translations_embed_the_same_things(page):
    zh, en = pages.text("zh", page), pages.text("en", page)
    assert zh != en, f"docs/en/{page} is a copy of docs/zh/{page}: translate it."
    zi = [(_shared(i.file, "zh"), i.section) for i in pages.includes(zh)]
    ei = [(_shared(i.file, "en"), i.section) for i in pages.includes(en)]
    assert zi == ei, (
        f"docs/zh/{page} and docs/en/{page} must embed the same snippets in the same order.\n"
        f"zh: {zi}\nen: {ei}"
    )
    zf, ef = pages.figures(zh), pages.figures(en)
    assert [p for p, _ in zf] == [p for p, _ in ef], (
        f"docs/zh/{page} and docs/en/{page} must show the same figures in the same order.\nzh: {zf}\nen: {ef}"
    )
    wrong = [f"{p}.{lang}.svg" for p, lang in zf if lang != "zh"] + [
        f"{p}.{lang}.svg" for p, lang in ef if lang != "en"
    ]
    assert not wrong, f"{page}: each language must show its own figure variant; wrong: {wrong}"
    assert pages.anchors(zh) == pages.anchors(en), (
        f"docs/zh/{page} and docs/en/{page} must define the same heading anchors {{ #id }} "
        f"in the same order, so links work in both languages.\n"
        f"zh: {pages.anchors(zh)}\nen: {pages.anchors(en)}"
    )


@pytest.mark.parametrize("page", ZH, ids=str)
def test_translations_state_the_same_numbers_links_and_boxes(page):
    """The numbers of each section, the claims and pages linked, the admonition boxes."""
    if not (pages.DOCS / "en" / page).is_file():
        pytest.skip("no English page (test_every_page_exists_in_both_languages)")
    problems = parity_problems(page.as_posix(), pages.text("zh", page), pages.text("en", page))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", ZH, ids=str)
def test_pages_hold_no_script_and_no_placeholder(page):
    found = []
    for lang in pages.LANGS:
        path = pages.DOCS / lang / page
        text = pages.read_text(path) if path.is_file() else ""
        found += [f"docs/{lang}/{page}:{no}: {what}" for no, what in escape.executable(text)]
        found += [
            f"docs/{lang}/{page}:{no}: {pages.untranslated(line)!r} marks text nobody has written yet"
            for no, line in enumerate(text.splitlines(), 1)
            if pages.untranslated(line)
        ]
    assert not found, "\n".join(found) + "\n" + escape.EXECUTABLE_FIX


def _shared(file: str, lang: str) -> str:
    """generated/zh/x and generated/en/x (tools/build/generate.py) are one generated
    piece in two languages."""
    return file.replace(f"{lang}/", "<lang>/", 1) if file.startswith(f"{lang}/") else file


@pytest.mark.parametrize("page", ZH, ids=str)
def test_each_language_reads_as_itself(page):
    """A zh page is mostly Chinese prose; an en page has no untranslated Chinese prose."""

    def prose(md: str) -> str:
        md = re.sub(r"^(\s*)(`{3,}|~{3,}).*?^\1\2\s*$", "", md, flags=re.S | re.M)
        md = re.sub(r"`[^`\n]*`", "", md)
        return "\n".join(line for line in md.splitlines() if not line.lstrip().startswith("|"))

    zh = prose(pages.text("zh", page))
    en = prose(pages.text("en", page))
    assert CJK.search(zh), f"docs/zh/{page} has no Chinese prose: translate it."
    leftovers = [line for line in en.splitlines() if CJK.search(line)]
    assert not leftovers, f"docs/en/{page} has untranslated Chinese: {leftovers[:3]}"


def test_no_python_typed_into_markdown():
    bad = []
    for lang in pages.LANGS:
        for page in pages.pages(lang):
            for line, info, body in pages.fences(pages.text(lang, page)):
                if not pages.is_python(info):
                    continue
                lines = [s for s in body.splitlines() if s.strip()]
                if not lines or not all("--8<--" in s for s in lines):
                    bad.append(f"docs/{lang}/{page}:{line}")
    assert not bad, (
        f"Python typed into Markdown; move it into a snippet under snippets/ and embed it with --8<--: {bad}"
    )


def test_every_include_resolves():
    missing = []
    for lang in pages.LANGS:
        for page in pages.pages(lang):
            for inc in pages.includes(pages.text(lang, page)):
                if not inc.path.is_file():
                    missing.append(f"docs/{lang}/{page}: {inc.file}")
    assert not missing, f"Included files that do not exist: {missing}"


def test_every_snippet_is_embedded_by_its_page():
    """snippets/<page path>/x.py is embedded by docs/*/<page path>.md (the tree mirrors)."""
    embedded: dict[Path, set[Path]] = {}
    for page in ZH:
        for inc in pages.includes(pages.text("zh", page)):
            embedded.setdefault(inc.path, set()).add(page)
    problems = []
    for path in all_snippets():
        owners = pages.owner_pages(path)
        users = embedded.get(path.resolve(), set())
        if not users:
            problems.append(f"{rel(path)} is embedded by no page")
        elif not any(Path(owner) in users for owner in owners):
            problems.append(
                f"{rel(path)} lives under the folder of {owners[0]} but that page does not embed it"
            )
    assert not problems, "\n".join(problems)


def test_every_figure_is_shown_and_every_shown_figure_has_a_script():
    scripts = {s.relative_to(fig_tools.FIGURES).with_suffix("").as_posix() for s in fig_tools.scripts()}
    shown: set[str] = set()
    for lang in pages.LANGS:
        for page in pages.pages(lang):
            shown.update(p for p, _ in pages.figures(pages.text(lang, page)))
    assert not scripts - shown, f"Figure scripts no page shows: {sorted(scripts - shown)}"
    assert not shown - scripts, f"Pages show figures with no script under figures/: {sorted(shown - scripts)}"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_changelog_renders_in_both_languages(lang):
    """The changelog page (tools/chapters/changelog/) renders from the classified results
    without MkDocs: a section per release pair, each change linking to a page and block
    that exists; the page answers first (its summary comes before the list)."""
    from tools.chapters.changelog import render
    from tools.versions import results

    marker = f'--8<-- "{lang}/reference/changelog.md"'  # written before the build (tools/build/)
    md = pages.text(lang, render.PAGE)
    assert md.count(marker) == 1, f"docs/{lang}/{render.PAGE} must include {marker} once"
    md = re.sub(r"\A---\n.*?\n---\n+", "", md, flags=re.S)  # the page's description front matter
    summary = md.split(marker)[0].split("\n", 1)[1]
    summary = re.sub(r"<!--.*?-->", "", summary, flags=re.S).strip()
    assert summary and "\n\n" not in summary, "the page starts with one summary paragraph"
    matrix = results.load_matrix()
    out = render.render(matrix, lang)
    assert out.count("\n## torch ") == len(render.changes(matrix)) > 0
    behaviour = [d for d in matrix.differences.entries if d.cls == "behaviour"]
    label = "**" + render.TEXT[lang]["behaviour_label"] + "**"
    assert out.count(label) == len(behaviour) > 0
    for target, anchor in re.findall(r"\]\(\.\./([^)#]+)#([-\w]+)\)", out):
        text = pages.text(lang, target)
        assert f"#{anchor}" in text, f"the changelog links to {target}#{anchor}, which has no such anchor"
    listed = [d for entries in render.changes(matrix).values() for d in entries]
    assert listed and all(d.cls != "environment" for d in listed), "an environment result is never published"


def test_shown_code_has_no_harness_plumbing():
    """Issue 23: no try/except around an expected error, no warning capture, textwrap
    or JSON loading in any code block a reader sees (both languages embed the same)."""
    found = []
    for page in pages.pages("en"):
        for block in page_code("en", page, cuda=False).blocks:  # CUDA blocks: shown, not run
            found += [
                f"docs/*/{page}, block {block.number}, line {line}: {what}"
                for line, what in plumbing(block.shown)
            ]
    assert not found, f"{len(found)} plumbing lines in shown code:\n" + "\n".join(found) + "\n" + PLUMBING_FIX
