"""No script from data: every drill payload, in every data field that reaches a page,
is refused by the data's checks or reaches the page as inert text (fault drill 4, A1-A11).

Each case edits one field of a copy of the data, loads it as the build does, renders
the page's Markdown as the build does, converts it to HTML with the site's Markdown
extensions, and looks for anything a browser could run (``tools.core.escape.executable``).
"""

from __future__ import annotations

import copy
import re

import markdown
import pytest
import yaml

from tools.chapters.factcheck import load as fc_load
from tools.chapters.factcheck import render as fc_render
from tools.chapters.faq import load as faq_load
from tools.chapters.faq import render as faq_render
from tools.chapters.pins import load as pins_load
from tools.chapters.pins import render as pins_render
from tools.core import escape
from tools.core.errors import ToolError
from tools.pages import checks

PAYLOADS = {
    "script": "<script>alert(1)</script>",
    "img-onerror": "<img src=x onerror=alert(1)>",
    "img-quoted-alt": '<img alt="" src=data:, onerror=alert(document.title)>',
    "svg-onload": "<svg onload=alert(1)>",
    "a-javascript": '<a href="javascript:alert(1)">docs</a>',
    "md-javascript": "[docs](javascript:alert(1))",
    "entity-javascript": '<a href="java&#x09;script:alert(1)">docs</a>',
    "iframe": '<iframe src="//tracker.example/embed" title="x"></iframe>',
    "attribute-break": '"><script>alert(1)</script>',
    "link-break": "https://x.org/a)<img src=data:, onerror=alert(document.domain)>",
}
EXTENSIONS = ["abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html", "tables", "toc"]
EXTENSIONS += ["pymdownx.details", "pymdownx.superfences", "pymdownx.inlinehilite"]


_MD = markdown.Markdown(extensions=EXTENSIONS)


def _html(md: str) -> str:
    md = re.sub(r"^\s*-+8<-+.*$", "", md, flags=re.M)  # the includes: snippets, not data
    return _MD.reset().convert(md)


def _inert(md: str) -> list:
    return escape.executable(_html(md), html_mode=True)


@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=list(PAYLOADS))
def test_the_prose_check_finds_every_payload(payload):
    """What the build refuses in page and data prose (glossary notes, the words of a
    torch-version difference, anything typed into docs/ or data/)."""
    assert escape.executable(f"| term | 术语 | a note {payload} |  |")


# --------------------------------------------------------------- the FAQ
FAQ_FIELDS = ["asked", "asked_en", "source", "duplicates", "title_zh", "title_en"]
FAQ_FIELDS += ["answer_zh", "answer_en", "notes_en", "error"]
MARKDOWN_FIELDS = {"title_zh", "title_en", "answer_zh", "answer_en", "notes_en"}


@pytest.fixture(scope="module")
def faq():
    return faq_load.load()


def _refused_by_load(field: str, payload: str) -> bool:
    """What ``faq_load.load`` refuses (tests/tooling/test_faq.py loads such entries):
    an address that is not a plain http(s) one, HTML or script in Markdown fields."""
    if field in ("source", "duplicates"):
        return escape.url_problem(payload) is not None
    if field in MARKDOWN_FIELDS:
        return bool(escape.markdown_problems(payload))
    return False


@pytest.mark.parametrize("field", FAQ_FIELDS)
@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=list(PAYLOADS))
def test_faq_fields(faq, field, payload):
    if _refused_by_load(field, payload):
        return
    assert field not in MARKDOWN_FIELDS | {"source", "duplicates"}, "load would publish it"
    changed = copy.deepcopy(faq)
    q = next(q for q in changed.questions if q.id == "numpy-requires-grad")
    if field == "error":
        q.error = payload
    else:
        setattr(q, field, payload)
    on_index = field in ("asked", "asked_en")  # the index lists the questions as asked
    for lang in ("zh", "en"):
        shown = [faq_render.render_topic(changed, lang, "numpy")]
        shown += [faq_render.render_index(changed, lang)] if on_index else []
        for md in shown:
            assert not _inert(md), (field, lang, _inert(md))


def test_the_faq_loader_refuses_html_and_bad_addresses(tmp_path):
    """One full load per kind (the matrix above uses the same validators)."""
    data = yaml.safe_load(faq_load.DATA.read_text(encoding="utf-8"))
    for field, value in [("title_en", PAYLOADS["img-quoted-alt"]), ("source", PAYLOADS["link-break"])]:
        changed = copy.deepcopy(data)
        entry = next(e for e in changed["questions"] if e["id"] == "numpy-requires-grad")
        entry[field] = value
        path = tmp_path / "questions.yml"
        path.write_text(yaml.safe_dump(changed, allow_unicode=True, sort_keys=False), encoding="utf-8")
        with pytest.raises(ToolError, match="numpy-requires-grad"):
            faq_load.load(path)


# --------------------------------------------------------------- the fact check
@pytest.fixture(scope="module")
def claims():
    return fc_load.load_claims()


@pytest.mark.parametrize("field", ["section", "quote", "quote_en", "reason_zh", "reason_en"])
@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=list(PAYLOADS))
def test_fact_check_fields(claims, field, payload):
    changed = copy.deepcopy(claims)
    changed[0][field] = str(changed[0][field]) + payload
    for lang in ("zh", "en"):
        md = fc_render.render(changed, lang)
        assert not _inert(md), (field, lang, _inert(md))


# --------------------------------------------------------------- the pins
@pytest.mark.parametrize("field", ["only", "subject"])
@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=list(PAYLOADS))
def test_pin_fields(tmp_path, field, payload):
    data = yaml.safe_load(pins_load.DATA.read_text(encoding="utf-8"))
    pin = data["pins"][0]
    pin[field] = {"en": payload, "zh": payload} if field == "only" else payload
    path = tmp_path / "upstream-tests.yml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    try:
        pins = pins_load.load(path)
    except ToolError:
        return
    for lang in ("zh", "en"):
        md = pins_render.tests_html(pins, [pin["id"]], lang)
        assert not _inert(md), (field, lang, _inert(md))


# --------------------------------------------------------------- the last line of defence
@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=list(PAYLOADS))
def test_a_page_whose_html_holds_script_is_refused(payload):
    html = _html(f"Some text. {payload}")
    raw = f"<p>Some text. {payload}</p>"
    found = checks.executable_html_problems(html, "docs/en/x.md") or checks.executable_html_problems(
        raw, "docs/en/x.md"
    )
    assert found and all(f.startswith("docs/en/x.md: the page's HTML holds") for f in found)
