"""The FAQ data, ``data/questions.yml``: read and validate it.

The data file holds questions mined from public Q&A threads, blog posts and issue
trackers, grouped by near-duplicates; the most frequent ones carry an answer in both
languages and an evidence snippet under ``snippets/faq/``. ``load()`` returns a
``Faq``; a malformed entry raises ``FaqError`` naming the entry and what to fix.

The pages are rendered by ``tools.chapters.faq.render`` and written by
``python -m tools faq write`` (and by every build, first, when the data changed).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tools.core import data as datafile
from tools.core import escape
from tools.core import sections as markers
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT, rel
from tools.pages.parse import _ANCHOR, untranslated

DATA = ROOT / "data" / "questions.yml"
SCHEMA = "questions.schema.json"  # data/schemas/: the fields and their shapes
FAQ_DIR = "faq"

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_DATE = re.compile(r"^(?:\d{4}-\d{2}(?:-\d{2})?|undated)$")
# Wider than tools.core.repo.CJK: Chinese punctuation in an English field is untranslated too.
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_LINK = re.compile(r"\]\(([^)\s]+)\)")

BASE = ("id", "topic", "asked", "source", "date")
ANSWER = (
    "title_zh",
    "title_en",
    "answer_zh",
    "answer_en",
    "evidence",
    "notes_zh",
    "notes_en",
    "see",
)
OPTIONAL = ("asked_en", "duplicates", "error", "covered_by")


class FaqError(ToolError):
    """A bad entry in data/questions.yml; the message names the entry and the fix."""


def _fail(where: str, what: str) -> FaqError:
    return FaqError(f"data/questions.yml, entry {where}: {what}")


@dataclass
class Question:
    id: str
    topic: str
    asked: str
    source: str
    date: str
    asked_en: str | None = None
    duplicates: list[dict] = field(default_factory=list)
    covered_by: str | None = None
    error: str | None = None
    title: dict[str, str] = field(default_factory=dict)
    answer: dict[str, str] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)
    evidence: str | None = None
    see: str | None = None
    order: int = 0

    @property
    def answered(self) -> bool:
        return self.evidence is not None

    @property
    def count(self) -> int:
        """How often the question was found: the source plus its near-duplicates."""
        return 1 + len(self.duplicates)

    @property
    def evidence_file(self) -> Path:
        return ROOT / self.evidence.partition(":")[0]

    @property
    def evidence_section(self) -> str:
        return self.evidence.partition(":")[2]

    def asked_in(self, lang: str) -> str:
        return self.asked_en if lang == "en" and self.asked_en else self.asked


@dataclass
class Faq:
    topics: dict[str, dict[str, str]]
    questions: list[Question]
    index_description: dict[str, str] | None = None

    def in_topic(self, topic: str) -> list[Question]:
        return sorted((q for q in self.questions if q.topic == topic), key=lambda q: (-q.count, q.order))

    def answered(self, topic: str) -> list[Question]:
        return [q for q in self.in_topic(topic) if q.answered]


def sections(path: Path) -> dict[str, str]:
    """Named sections of a snippet or record: name -> body."""
    return markers.named(path.read_text(encoding="utf-8"), rel(path))


def page_anchors(lang: str, page: str) -> set[str]:
    path = DOCS / lang / page
    return set(_ANCHOR.findall(path.read_text(encoding="utf-8"))) if path.is_file() else set()


def _check_link(link: str, where: str, what: str, faq_anchors: dict[str, set[str]]) -> None:
    page, _, anchor = link.partition("#")
    if not page.endswith(".md") or not anchor:
        raise _fail(where, f"{what} {link!r} must look like section/page.md#anchor.")
    for lang in LANGS:
        if page.startswith(FAQ_DIR + "/"):
            anchors = faq_anchors.get(page, set())
        else:
            if not (DOCS / lang / page).is_file():
                raise _fail(where, f"{what}: docs/{lang}/{page} does not exist.")
            anchors = page_anchors(lang, page)
        if anchor not in anchors:
            raise _fail(where, f"{what}: docs/{lang}/{page} has no heading {{ #{anchor} }}.")


_ZH_PUNCT = "，。；：、（）“”！？《》"
_ZH_GAP = re.compile(
    rf"(?<=[\u4e00-\u9fff{_ZH_PUNCT}])\s+(?=[\u4e00-\u9fff])"
    rf"|(?<=[\u4e00-\u9fff])\s+(?=[{_ZH_PUNCT}])|(?<=[{_ZH_PUNCT}])\s+"
)


def join_lines(text: str) -> str:
    """One line; a line break inside Chinese text (YAML folding) leaves no space."""
    return _ZH_GAP.sub("", " ".join(text.split()))


def _text(entry: dict, key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"{key} must be a non-empty string.")
    return join_lines(value)


# --------------------------------------------------------------------------- one entry
def _check_fields(entry: dict, index: int, topics: dict) -> str:
    """The entry's topic (its shape is the schema's); returns its id, which errors use."""
    where = str(entry["id"])
    if entry["topic"] not in topics:
        raise _fail(where, f"unknown topic {entry['topic']!r}; use one of {list(topics)}.")
    return where


def _asked(entry: dict, index: int, where: str) -> Question:
    """The question as asked: quote, source, date and its English translation."""
    q = Question(
        id=entry["id"],
        topic=entry["topic"],
        asked=_text(entry, "asked", where),
        source=entry["source"],
        date=entry["date"],
        order=index,
    )
    if _CJK.search(q.asked) and not entry.get("asked_en"):
        raise _fail(where, "asked is not in English: add asked_en, its translation.")
    if entry.get("asked_en"):
        q.asked_en = _text(entry, "asked_en", where)
    return q


def _add_duplicates(q: Question, entry: dict, where: str) -> None:
    seen = {q.source}
    for n, dup in enumerate(entry.get("duplicates") or [], 1):
        url = dup["source"]
        if url in seen:
            raise _fail(where, f"duplicate #{n} {url} is listed twice for this question.")
        seen.add(url)
        q.duplicates.append({"source": url, "date": dup.get("date", "undated")})


def _add_texts(q: Question, entry: dict, where: str) -> None:
    """Title, answer and notes in both languages; the English ones in English. They
    are Markdown: HTML, script and links that are not addresses are refused
    (``tools.core.escape.markdown_problems``), and so are placeholders."""
    for lang in LANGS:
        q.title[lang] = _text(entry, f"title_{lang}", where)
        q.answer[lang] = _text(entry, f"answer_{lang}", where)
        q.notes[lang] = [join_lines(n) for n in entry[f"notes_{lang}"]]
        fields = {f"title_{lang}": q.title[lang], f"answer_{lang}": q.answer[lang]}
        fields.update({f"notes_{lang}[{n}]": note for n, note in enumerate(q.notes[lang], 1)})
        for key, text in fields.items():
            problems = escape.markdown_problems(text)
            if problems:
                raise _fail(where, f"{key} holds {problems[0]}. {escape.EXECUTABLE_FIX}")
            placeholder = untranslated(text)
            if placeholder:
                raise _fail(
                    where,
                    f"{key} is not written yet: it holds {placeholder!r}. Write the "
                    f"{'Chinese' if lang == 'zh' else 'English'} text (or leave the question "
                    "unanswered until both languages are written).",
                )


def _add_answer(q: Question, entry: dict, where: str) -> None:
    _add_texts(q, entry, where)
    q.evidence = str(entry["evidence"])
    q.see = str(entry["see"])
    _check_evidence(q, where)
    if entry.get("error"):
        q.error = " ".join(str(entry["error"]).split())
        _check_error(q, where)


def _add_pointer(q: Question, entry: dict, where: str) -> None:
    """An unanswered question: at most a link to where the site covers it."""
    if entry.get("covered_by"):
        q.covered_by = str(entry["covered_by"])


def _question(entry: object, index: int, topics: dict) -> Question:
    where = _check_fields(entry, index, topics)
    q = _asked(entry, index, where)
    _add_duplicates(q, entry, where)
    if any(k in entry for k in ANSWER):
        _add_answer(q, entry, where)
    else:
        _add_pointer(q, entry, where)
    return q


def _check_evidence(q: Question, where: str) -> None:
    path, _, section = q.evidence.partition(":")
    prefix = f"snippets/{FAQ_DIR}/{q.topic}/"
    if not (path.startswith(prefix) and path.endswith(".py") and section):
        raise _fail(where, f"evidence {q.evidence!r} must be {prefix}<file>.py:<section>.")
    file = ROOT / path
    if not file.is_file():
        raise _fail(where, f"evidence file {path} does not exist.")
    found = sections(file)
    if section not in found:
        raise _fail(where, f"evidence section {section!r} is not in {path} (has {sorted(found)}).")
    body = found[section]
    if not re.search(r"^\s*assert\b", body, re.M):
        raise _fail(where, f"evidence {q.evidence} has no assert: the snippet must prove the answer.")
    _check_notes(q, where, body)
    record = file.with_suffix(".out")
    if not record.is_file() or section not in sections(record):
        raise _fail(
            where,
            f"{path} has no recorded output for section {section!r}; run "
            f".venv/bin/python -m tools snippets record {path}",
        )


def _check_notes(q: Question, where: str, body: str) -> None:
    """One note per annotation marker ``# (n)!`` of the evidence, numbered in order."""
    problem = markers.annotation_mismatch(body, q.notes, q.evidence)
    if problem:
        raise _fail(where, problem)


def _check_error(q: Question, where: str) -> None:
    out = sections(q.evidence_file.with_suffix(".out"))[q.evidence_section]
    if q.error not in " ".join(out.split()):
        raise _fail(
            where,
            f"error text {q.error!r} does not appear in the recorded output of {q.evidence}; "
            "quote the message exactly as the snippet prints it.",
        )


# --------------------------------------------------------------------------- the file
def _read(path: Path) -> dict:
    return datafile.load(path, SCHEMA, entries="questions", error=FaqError).data


def _check_links(faq: Faq) -> None:
    """Every see:, covered_by: and link in an answer points to an existing heading."""
    anchors = {f"{FAQ_DIR}/{t}.md": {q.id for q in faq.answered(t)} for t in faq.topics}
    for q in faq.questions:
        link = q.see or q.covered_by
        if link:
            _check_link(link, q.id, "see" if q.see else "covered_by", anchors)
        for lang in q.answer:
            for target in _LINK.findall(q.answer[lang]):
                page = f"{FAQ_DIR}/{q.topic}.md" if target.startswith("#") else ""
                if not target.startswith("#"):
                    page = os.path.normpath(f"{FAQ_DIR}/{target.partition('#')[0]}")
                _check_link(f"{page}#{target.partition('#')[2]}", q.id, f"a link in answer_{lang}", anchors)


def load(path: Path = DATA) -> Faq:
    """Read and validate the data file; raise FaqError naming the first bad entry."""
    data = _read(path)
    topics = data["topics"]
    questions = [_question(e, i, topics) for i, e in enumerate(data["questions"], 1)]
    dupes = sorted(i for i, n in Counter(q.id for q in questions).items() if n > 1)
    if dupes:
        raise _fail(", ".join(dupes), "duplicate id.")
    faq = Faq(topics=topics, questions=questions, index_description=data.get("index_description"))
    for topic in topics:
        if not faq.answered(topic):
            raise FaqError(
                f"data/questions.yml, topic {topic!r}: has no answered question; its page would be empty."
            )
    _check_links(faq)
    return faq
