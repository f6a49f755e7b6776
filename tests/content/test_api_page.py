"""The API reference in both languages: every public object of ``autograd_lens`` is
documented, and the zh page gives Chinese readers Chinese.

The docstrings are English. On docs/zh/reference/api.md each object has a
mkdocstrings block that renders only its heading and signature (the English
docstring sections switched off), followed by the Chinese text: a lead paragraph,
then ``**参数：**`` / ``**属性：**`` / ``**引发：**`` tables with one row per name
and a ``**返回：**`` paragraph. A second block may render the docstring's
examples. The checks read the docstrings with griffe, as mkdocstrings does, so a
parameter, exception or attribute added to the source without a Chinese row here
fails, naming it.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

import griffe
import pytest
import yaml

from tools.core.repo import CJK
from tools.pages.parse import DOCS, ROOT

PACKAGE = "autograd_lens"
ZH_PAGE = DOCS / "zh" / "reference" / "api.md"
EN_PAGE = DOCS / "en" / "reference" / "api.md"
BLOCK = re.compile(r"^::: (?P<id>\S+)[ \t]*\n(?P<options>(?:[ \t]+\S.*\n|[ \t]*\n)*)", re.M)
# Section titles of the Chinese text, as mkdocstrings' zh labels have them.
SECTIONS = {"parameters": "参数", "attributes": "属性", "returns": "返回", "raises": "引发"}
SECTION_TITLE = re.compile(r"^\*\*(?P<title>" + "|".join(SECTIONS.values()) + r")：\*\*[ \t]*$", re.M)
ROW = re.compile(r"^\|\s*`(?P<name>[^`]+)`\s*\|(?P<text>.*)\|\s*$", re.M)
# Docstring sections whose prose is English: a zh block must switch each one off.
OPTION_FOR_KIND = {
    "text": "show_docstring_description",
    "admonition": "show_docstring_description",
    "parameters": "show_docstring_parameters",
    "other parameters": "show_docstring_other_parameters",
    "attributes": "show_docstring_attributes",
    "returns": "show_docstring_returns",
    "yields": "show_docstring_yields",
    "receives": "show_docstring_receives",
    "raises": "show_docstring_raises",
    "warns": "show_docstring_warns",
}


@dataclass
class Block:
    ident: str
    options: dict
    text: str  # the Markdown after the block, up to the next block

    @property
    def main(self) -> bool:
        """The block that renders the object's heading (not an examples-only block)."""
        return self.options.get("show_root_heading", True) is not False


@dataclass
class Entry:
    ident: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.blocks)


def blocks(md: str) -> list[Block]:
    found = list(BLOCK.finditer(md))
    out = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(md)
        opts = yaml.safe_load(textwrap.dedent(m["options"])) or {}
        out.append(Block(m["id"], opts.get("options") or {}, md[m.end() : end]))
    return out


def _package():
    return griffe.load(PACKAGE, search_paths=[ROOT / "src"], docstring_parser="google")


def _object(pkg, ident: str):
    return pkg[ident.removeprefix(PACKAGE + ".")]


def documented(pkg, idents: list[str]) -> list[str]:
    """The objects a page shows: its blocks, and the public members with a docstring
    of each class (what mkdocstrings renders under the class by default)."""
    out = []
    for ident in idents:
        out.append(ident)
        obj = _object(pkg, ident)
        if obj.is_class:
            out += [
                f"{ident}.{name}"
                for name, member in obj.members.items()
                if not name.startswith("_") and member.docstring
            ]
    return out


def _sections(text: str) -> tuple[str, dict[str, str]]:
    """(lead text, {section title: its text}) of one object's Chinese text."""
    marks = list(SECTION_TITLE.finditer(text))
    lead = text[: marks[0].start()] if marks else text
    out = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out[m["title"]] = text[m.end() : end]
    return lead, out


def _rows(section: str) -> dict[str, str]:
    return {m["name"]: m["text"] for m in ROW.finditer(section)}


def _expr_name(annotation) -> str:
    return str(annotation).rsplit(".", 1)[-1]


def problems(zh_md: str, en_md: str, pkg=None) -> list[str]:
    """Everything the zh page lacks or shows in English, one line per object or name."""
    pkg = pkg or _package()
    where = "docs/zh/reference/api.md"
    out: list[str] = []
    zh_blocks, en_blocks = blocks(zh_md), blocks(en_md)
    en_main = [b.ident for b in en_blocks if b.main]
    zh_main = [b.ident for b in zh_blocks if b.main]
    for name in pkg.exports:
        ident = f"{PACKAGE}.{name}"
        for page, shown in (("docs/en/reference/api.md", en_main), (where, zh_main)):
            if ident not in shown:
                out.append(
                    f"{page}: public object {ident} (in __all__) is not documented: add a `::: {ident}` block"
                )
    entries: dict[str, Entry] = {}
    for b in zh_blocks:
        entries.setdefault(b.ident, Entry(b.ident)).blocks.append(b)
    for ident in documented(pkg, en_main):
        entry = entries.get(ident)
        if entry is None or not any(b.main for b in entry.blocks):
            out.append(
                f"{where}: {ident} has no block: add `::: {ident}` with its Chinese text "
                "(see the other objects on the page)"
            )
            continue
        obj = _object(pkg, ident)
        parsed = obj.docstring.parse("google") if obj.docstring else []
        kinds = {s.kind.value for s in parsed}
        for b in entry.blocks:
            shown = sorted(
                k
                for k in kinds
                if k in OPTION_FOR_KIND and b.options.get(OPTION_FOR_KIND[k], True) is not False
            )
            if shown:
                out.append(
                    f"{where}: the `::: {ident}` block shows the English docstring's "
                    f"{', '.join(shown)}: set "
                    + ", ".join(sorted({f"{OPTION_FOR_KIND[k]}: false" for k in shown}))
                )
            if obj.is_class and b.options.get("members", True) not in (False, []):
                out.append(
                    f"{where}: the `::: {ident}` block renders its members with English "
                    "docstrings: set `members: false` and give each member its own block"
                )
        if "examples" in kinds and all(
            b.options.get("show_docstring_examples", True) is False for b in entry.blocks
        ):
            out.append(
                f"{where}: {ident}'s docstring has examples the zh page does not show: "
                "add an examples-only block after its Chinese text"
            )
        lead, sections = _sections(entry.text)
        if not CJK.search(re.sub(r"`[^`]*`|<[^>]+>", "", lead)):
            out.append(f"{where}: {ident} has no Chinese description: write one below its block")
        documented_names = {
            SECTIONS["parameters"]: [
                p.name for p in getattr(obj, "parameters", []) if p.name not in ("self", "cls")
            ],
            SECTIONS["attributes"]: [a.name for s in parsed if s.kind.value == "attributes" for a in s.value],
            SECTIONS["raises"]: [
                _expr_name(r.annotation) for s in parsed if s.kind.value == "raises" for r in s.value
            ],
        }
        if obj.is_class:  # a dataclass's fields are its __init__ parameters: one table will do
            fields = set(documented_names[SECTIONS["attributes"]])
            documented_names[SECTIONS["parameters"]] = [
                p for p in documented_names[SECTIONS["parameters"]] if p not in fields
            ]
        for title, names in documented_names.items():
            rows = _rows(sections.get(title, ""))
            for name in names:
                if name not in rows:
                    out.append(
                        f"{where}: {ident}: {name!r} has no Chinese description: add a row "
                        f"| `{name}` | … | under **{title}：**"
                    )
                elif not CJK.search(re.sub(r"`[^`]*`", "", rows[name])):
                    out.append(
                        f"{where}: {ident}: the row for {name!r} under **{title}：** is not in Chinese"
                    )
            for stale in sorted(set(rows) - set(names)):
                out.append(
                    f"{where}: {ident}: the row for {stale!r} under **{title}：** names "
                    "nothing the source documents: remove or rename it"
                )
        if "returns" in kinds:
            text = sections.get(SECTIONS["returns"], "")
            if not CJK.search(re.sub(r"`[^`]*`", "", text)):
                out.append(
                    f"{where}: {ident}: the return value has no Chinese description: "
                    f"add a paragraph under **{SECTIONS['returns']}：**"
                )
    known = set(documented(pkg, en_main))
    for ident in entries:
        if ident not in known:
            out.append(
                f"{where}: `::: {ident}` is not on the English page (or is not public): "
                "both pages document the same objects"
            )
    return out


@pytest.fixture(scope="module")
def package():
    return _package()


def test_both_pages_document_the_same_objects_in_the_same_order():
    en = [b.ident for b in blocks(EN_PAGE.read_text(encoding="utf-8")) if b.main]
    zh = [b.ident for b in blocks(ZH_PAGE.read_text(encoding="utf-8")) if b.main]
    top = [i for i in zh if i in en]
    assert top == en, (
        "docs/zh/reference/api.md and docs/en/reference/api.md must document the same "
        f"objects in the same order.\nzh: {top}\nen: {en}"
    )


def test_zh_page_gives_every_public_object_and_parameter_in_chinese(package):
    found = problems(ZH_PAGE.read_text(encoding="utf-8"), EN_PAGE.read_text(encoding="utf-8"), package)
    assert not found, "\n".join(found)


def test_the_check_names_what_is_missing(package):
    """The check above fails, naming the object and the parameter, when a row goes."""
    zh = ZH_PAGE.read_text(encoding="utf-8")
    en = EN_PAGE.read_text(encoding="utf-8")
    row = re.search(r"^\| `max_nodes` \|.*\n", zh, re.M)
    assert row, "the zh page has no max_nodes row for draw_graph"
    found = problems(zh.replace(row[0], ""), en, package)
    assert any("autograd_lens.draw_graph" in p and "'max_nodes'" in p for p in found), found

    english = zh.replace("      show_docstring_raises: false\n", "", 1)
    found = problems(english, en, package)
    assert any("autograd_lens.autograd_graph" in p and "raises" in p for p in found), found

    gone = re.sub(r"(?ms)^::: autograd_lens\.parameters_with_grad\n.*?(?=^::: )", "", zh)
    assert gone != zh
    found = problems(gone, en, package)
    assert any("autograd_lens.parameters_with_grad" in p and "__all__" in p for p in found), found
