"""The FAQ chapter's pages, rendered from the validated data (``tools.chapters.faq.load``).

``render_index(faq, lang)`` and ``render_topic(faq, lang, topic)`` give the Markdown;
``pages()`` maps every generated page under ``docs/<lang>/faq/`` to it, ``stale()``
lists the committed pages that differ and ``write()`` rewrites them, so that the page
tests see the same includes and anchors as the build.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlparse

from tools.chapters.faq.load import FAQ_DIR, Faq, Question, load
from tools.core import escape, generated
from tools.core.i18n import UI
from tools.core.repo import DOCS, LANGS
from tools.pages import parse as page_files

WRITE_HINT = ".venv/bin/python -m tools faq write"

LABELS = UI["faq"]


def code_span(text: str) -> str:
    """``text`` as one Markdown code span, even when it holds backticks: the fence is
    one backtick longer than its longest run of them (CommonMark)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_escape = escape.plain  # text from the data, shown as written (tools.core.escape)


def _host(url: str) -> str:
    host = urlparse(url).netloc.removeprefix("www.")
    path = urlparse(url).path
    if host == "github.com":
        parts = path.strip("/").split("/")
        if len(parts) >= 4 and parts[2] in ("issues", "pull"):
            return f"{parts[0]}/{parts[1]}#{parts[3]}"
        return "/".join(parts[:2])
    return host


def _date_text(date: str, lang: str) -> str:
    return LABELS[lang]["undated"] if date == "undated" else date


def _rel(target: str, from_page: str) -> str:
    page, _, anchor = target.partition("#")
    rel = os.path.relpath(page, os.path.dirname(from_page) or ".")
    return rel + (f"#{anchor}" if anchor else "")


def page_title(lang: str, page: str) -> str:
    """A page's title; an FAQ topic page's comes from the data (it may not be written yet)."""
    topic = page.removeprefix(f"{FAQ_DIR}/").removesuffix(".md")
    topics = _topics()
    if page.startswith(f"{FAQ_DIR}/") and topic in topics:
        return topics[topic][lang]
    return page_files.title(lang, page)


@cache
def _topics() -> dict[str, dict[str, str]]:
    return load().topics


def _source_line(q: Question, lang: str) -> str:
    lab = LABELS[lang]
    comma = "，" if lang == "zh" else ", "
    line = f"[{_host(q.source)}]({q.source}){comma}{_date_text(q.date, lang)}"
    if q.duplicates:
        links = lab["sep"].join(f"[{_host(d['source'])}]({d['source']})" for d in q.duplicates)
        line += ("；" if lang == "zh" else "; ") + lab["dups"].format(n=len(q.duplicates)) + links
    return line


def _entry(q: Question, lang: str, page: str) -> str:
    """One answered question: the short answer first, then the error text, the code
    that checks the answer and its output; the question as asked, collapsed, last."""
    lab = LABELS[lang]
    code = q.evidence.partition(":")[0].removeprefix("snippets/")
    out = code.removesuffix(".py") + ".out"
    section = q.evidence_section
    quote = "“" + _escape(q.asked_in(lang)) + "”"
    parts = [f"## {q.title[lang]} {{ #{q.id} }}", "", f"**{lab['answer']}{q.answer[lang]}", ""]
    if q.error:
        parts += [f'!!! failure "{lab["error"]}"', f"    {code_span(q.error)}", ""]
    parts += [
        f'``` python title="{q.evidence.partition(":")[0]}"',
        f'--8<-- "{code}:{section}"',
        "```",
        "",
    ]
    if q.notes[lang]:
        parts += [f"{n}.  {note}" for n, note in enumerate(q.notes[lang], 1)] + [""]
    parts += [
        f'``` text title="{lab["output"]}"',
        f'--8<-- "{out}:{section}"',
        "```",
        "",
        f"{lab['see']}[{page_title(lang, q.see.partition('#')[0])}]({_rel(q.see, page)})",
        "",
        f'??? quote "{lab["asked"]}"',
        f"    {quote}",
        "",
        f"    {_source_line(q, lang)}",
        "",
    ]
    return "\n".join(parts)


def _header(lang: str) -> str:
    return f"<!-- {LABELS[lang]['generated'].format(cmd=WRITE_HINT)} -->"


def _front_matter(description: str | None) -> list[str]:
    """The page's ``description:`` front matter (search excerpts, link previews)."""
    if not description:
        return []
    return ["---", f"description: {json.dumps(description, ensure_ascii=False)}", "---", ""]


def render_topic(faq: Faq, lang: str, topic: str) -> str:
    """The Markdown of one topic page: its answered questions, most frequent first."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    if topic not in faq.topics:
        raise ValueError(f"unknown topic {topic!r}; known: {list(faq.topics)}.")
    page = f"{FAQ_DIR}/{topic}.md"
    lab = LABELS[lang]
    front = _front_matter(faq.topics[topic].get(f"description_{lang}"))
    parts = [*front, f"# {faq.topics[topic][lang]}", "", _header(lang), ""]
    for q in faq.answered(topic):
        parts.append(_entry(q, lang, page))
    parts += ["---", "", lab["topic_intro"], lab["more"], ""]
    return "\n".join(parts)


INDEX = UI["faq.index"]


def _cell(text: str) -> str:
    return _escape(" ".join(text.split()))


def render_index(faq: Faq, lang: str) -> str:
    """The Markdown of the chapter's index page: every question, its text the link to
    its answer; where each was asked and how often, collapsed at the end."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    t = INDEX[lang]
    page = f"{FAQ_DIR}/index.md"
    qs = faq.questions
    answered = sum(q.answered for q in qs)
    parts = [
        *_front_matter((faq.index_description or {}).get(lang)),
        f"# {t['title']}",
        "",
        _header(lang),
        "",
        t["lead"],
        "",
        *[_top_item(q, lang, page) for q in _most_asked(qs)],
        "",
        t["top_more"],
        "",
        f"## {t['search']}",
        "",
        t["search_text"],
        "",
        f"## {t['topics']}",
        "",
    ]
    for topic, names in faq.topics.items():
        in_topic = faq.in_topic(topic)
        counts = t["topic_item"].format(n=len(in_topic), answered=sum(q.answered for q in in_topic))
        parts.append(
            f"- [{names[lang]}]({topic}.md)：{counts}"
            if lang == "zh"
            else f"- [{names[lang]}]({topic}.md): {counts}"
        )
    parts += ["", f"## {t['all']}", "", t["all_text"], ""]
    for topic, names in faq.topics.items():
        parts += [f"**{names[lang]}**", ""]
        parts += [_question_item(faq, q, lang, page) for q in faq.in_topic(topic)]
        parts.append("")
    intro = t["intro"].format(n=len(qs), sources=sum(q.count for q in qs), answered=answered)
    parts += [f"## {t['method']}", "", intro, "", t["method_text"], "", f'??? info "{t["data"]}"', ""]
    for q in qs:
        parts.append("    - " + _data_item(q, lang))
    parts.append("")
    return "\n".join(parts)


MOST_ASKED = 6  # the index's first screen: the answers most readers came for


def _most_asked(questions: list[Question]) -> list[Question]:
    """The answered questions asked most often (ties keep the data's order)."""
    answered = [q for q in questions if q.answered]
    return sorted(answered, key=lambda q: -q.count)[:MOST_ASKED]


def _top_item(q: Question, lang: str, page: str) -> str:
    return f"- [{_link(q.title[lang])}]({_rel(f'{FAQ_DIR}/{q.topic}.md#{q.id}', page)})"


def _question_item(faq: Faq, q: Question, lang: str, page: str) -> str:
    """A list item of all questions: the question, as the link to where it is answered."""
    anchor = f'<span id="q-{q.id}"></span>'
    if q.answered:
        return f"- {anchor}[{_link(q.title[lang])}]({_rel(f'{FAQ_DIR}/{q.topic}.md#{q.id}', page)})"
    asked = "“" + _cell(q.asked_in(lang)) + "”"
    if not q.covered_by:
        return f"- {anchor}{asked} *{INDEX[lang]['none']}*"
    return f"- {anchor}[{asked}]({_rel(q.covered_by, page)}) {_answer_cell(faq, q, lang, page, where=True)}"


def _link(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


def _data_item(q: Question, lang: str) -> str:
    """Where a question was asked, when, and how often (the collected data)."""
    comma = "，" if lang == "zh" else ", "
    source = f"[{_host(q.source)}]({q.source}){comma}{_date_text(q.date, lang)}"
    times = INDEX[lang]["times"].format(n=q.count)
    return f"“{_cell(q.asked_in(lang))}”{'——' if lang == 'zh' else ' — '}{source}{comma}{times}"


def _answer_cell(faq: Faq, q: Question, lang: str, page: str, where: bool = False) -> str:
    """Where the answer is: this chapter's entry, a page of the site, or nowhere yet
    (``where``: the name of the page only, after the question that links it)."""
    if q.answered:
        return f"[{q.title[lang]}]({_rel(f'{FAQ_DIR}/{q.topic}.md#{q.id}', page)})"
    if not q.covered_by:
        return f"*{INDEX[lang]['none']}*"
    target = q.covered_by.partition("#")[0]
    if target.startswith(FAQ_DIR):
        name = _faq_title(faq, q.covered_by, lang)
    else:
        name = page_title(lang, target)
    if where:
        return INDEX[lang]["answered_in"].format(page=name)
    return f"[{name}]({_rel(q.covered_by, page)})"


def _faq_title(faq: Faq, link: str, lang: str) -> str:
    anchor = link.partition("#")[2]
    for q in faq.questions:
        if q.id == anchor and q.answered:
            return q.title[lang]
    return link


def pages(faq: Faq) -> dict[Path, str]:
    """Every generated page: docs path -> Markdown."""
    out: dict[Path, str] = {}
    for lang in LANGS:
        out[DOCS / lang / FAQ_DIR / "index.md"] = render_index(faq, lang)
        for topic in faq.topics:
            out[DOCS / lang / FAQ_DIR / f"{topic}.md"] = render_topic(faq, lang, topic)
    return out


def stale(faq: Faq | None = None) -> list[str]:
    """Generated pages whose committed file differs from the data (repo-relative)."""
    return generated.stale(pages(faq or load()), FAQ_DIR, "topic")


def write() -> list[Path]:
    return generated.write(pages(load()))
