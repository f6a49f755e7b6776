"""The error chapter's pages and search queries, rendered from the validated data
(``tools.chapters.errors.load``).

``render_group(errs, lang, group)`` and ``render_index(errs, lang)`` give the Markdown;
``queries(errs)`` the search queries a reader would paste (each answered message as
PyTorch printed it in the recorded run, and the page and entry it should find);
``pages()`` maps every generated file to its text, ``stale()`` lists the committed
files that differ and ``write()`` rewrites them.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

from tools.chapters.errors.load import ERRORS_DIR, Entry, Errors, Message, load, pattern, shown
from tools.chapters.faq.load import load as load_faq
from tools.chapters.faq.render import code_span, page_title
from tools.core import sections as markers
from tools.core.i18n import UI
from tools.core.repo import DOCS, LANGS, ROOT

WRITE_HINT = ".venv/bin/python -m tools errors write"
# Generated beside the hand-kept data/search-queries.yml, in its shape; the search test
# runs both files.
QUERIES = ROOT / "data" / "search-queries-errors.yml"

T = UI["errors"]


def _rel(target: str, from_page: str) -> str:
    page, _, anchor = target.partition("#")
    rel = os.path.relpath(page, os.path.dirname(from_page) or ".")
    return rel + (f"#{anchor}" if anchor else "")


def _include(ref: str, suffix: str) -> str:
    path, _, section = ref.partition(":")
    return f"{path.removeprefix('snippets/').removesuffix('.py')}{suffix}:{section}"


def recorded(m: Message) -> str:
    """The message as the recorded run printed it: ``Type: text``, on one line."""
    path = m.file.with_suffix(".out")
    out = markers.named(path.read_text(encoding="utf-8"), str(path))[m.section]
    lines = out.splitlines()
    start = next(
        (
            i
            for i, line in enumerate(lines)
            if re.match(r"^([A-Za-z_][\w.]*(Error|Warning|Exception)|([\w.]*\.)?Unsupported): ", line)
        ),
        None,
    )
    if start is None:
        return m.text
    text = []
    for line in lines[start:]:
        if not line.strip():
            break
        text.append(line.strip())
    return " ".join(text)


def first_line(message: str, most: int = 160) -> str:
    """The part a reader pastes: up to the end of the first sentence, at most ``most`` characters."""
    head = re.split(r"(?<=[.!?])\s|,\s(?=\w+:)", message, maxsplit=1)[0]
    if len(head) <= most:
        return head
    cut = head[:most].rsplit(" ", 1)[0]
    return cut


def query(m: Message) -> str:
    """What a reader pastes for ``m``: the first sentence of the recorded message, or,
    when ``m`` quotes a later part of it, the sentence where that part starts."""
    text = recorded(m)
    head = first_line(text)
    hit = pattern(m.text).search(text)
    if hit is None or pattern(m.text).search(head):
        return head
    kind = text.split(":", 1)[0]
    return f"{kind}: {first_line(text[hit.start() :], most=158 - len(kind))}"


def _faq_notes(ref: str, lang: str) -> list[str]:
    """The annotations of an FAQ section this chapter embeds (they live in questions.yml)."""
    for q in load_faq().questions:
        if q.evidence == ref:
            return q.notes[lang]
    return []


def _code(ref: str, lang: str) -> list[str]:
    path = ref.partition(":")[0]
    parts = [f'``` python title="{path}"', f'--8<-- "{_include(ref, ".py")}"', "```", ""]
    notes = _faq_notes(ref, lang) if path.startswith("snippets/faq/") else []
    if notes:
        parts += [f"{n}.  {note}" for n, note in enumerate(notes, 1)] + [""]
    parts += [f'``` text title="{T[lang]["output"]}"', f'--8<-- "{_include(ref, ".out")}"', "```", ""]
    return parts


def _box(e: Entry, lang: str) -> list[str]:
    t = T[lang]
    warning = all(m.kind == "warning" for m in e.messages)
    kind, label = ("warning", t["warning_box"]) if warning else ("failure", t["error_box"])
    # "message": the box is what search matches a pasted message against
    # (tools/build/search.py).
    parts = [f'!!! {kind} message "{label}"']
    shown_once = list(dict.fromkeys(recorded(m) for m in e.messages))
    for n, text in enumerate(shown_once):
        if n:
            parts.append("")
        parts.append(f"    {code_span(text)}")
    return [*parts, ""]


def render_entry(e: Entry, lang: str, page: str) -> str:
    t = T[lang]
    parts = [f"## {e.title[lang]} {{ #{e.id} }}", "", *_box(e, lang)]
    parts += [f"**{t['cause']}{e.cause[lang]}", "", f"**{t['fix']}{e.fix_text[lang]}", ""]
    if e.fix:
        parts += _code(e.fix, lang)
        parts += [f"**{t['reproduce']}", ""]
    for ref in dict.fromkeys(m.raises for m in e.messages):
        parts += _code(ref, lang)
    if e.since:
        parts += [f"*{e.since[lang]}*", ""]
    links = [f"{t['see']}[{page_title(lang, e.see.partition('#')[0])}]({_rel(e.see, page)})"]
    if e.faq:
        links.append(f"{t['faq']}[{t['faq_name']}]({_rel(e.faq, page)})")
    parts += [t["sep"].join(links), ""]
    return "\n".join(parts)


def _front(description: str) -> list[str]:
    return ["---", f"description: {json.dumps(description, ensure_ascii=False)}", "---", ""]


def _header(lang: str) -> str:
    return f"<!-- {T[lang]['generated'].format(cmd=WRITE_HINT)} -->"


def render_group(errs: Errors, lang: str, group: str) -> str:
    names = errs.groups[group]
    page = f"{ERRORS_DIR}/{group}.md"
    entries = errs.in_group(group)
    desc = T[lang]["group_description"].format(name=names[lang], n=sum(len(e.messages) for e in entries))
    parts = [*_front(desc), f"# {names[lang]}", "", _header(lang), "", names[f"lead_{lang}"], ""]
    parts += [f"- [{_link(e.title[lang])}](#{e.id})" for e in entries] + [""]
    parts += [render_entry(e, lang, page) for e in entries]
    parts += ["---", "", T[lang]["group_more"], ""]
    return "\n".join(parts)


def _link(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


def _message_item(e: Entry, m: Message, lang: str) -> str:
    return f"- [{code_span(query(m))}]({e.group}.md#{e.id})"


def _counts(errs: Errors) -> dict[str, int]:
    by_class = Counter(r.cls for r in errs.excused.values())
    return {
        "candidates": len(errs.candidates),
        "files": len(errs.files),
        "answered": len(errs.answered),
        "messages": sum(len(e.messages) for e in errs.entries),
        "entries": len(errs.entries),
        **{f"excused_{k}": v for k, v in by_class.items()},
    }


def render_index(errs: Errors, lang: str) -> str:
    t = T[lang]
    n = _counts(errs)
    parts = [*_front(t["description"]), f"# {t['title']}", "", _header(lang), "", t["lead"], ""]
    for group, names in errs.groups.items():
        entries = errs.in_group(group)
        if not entries:
            continue
        parts += [f"## {names[lang]} {{ #{group} }}", ""]
        parts += [_message_item(e, m, lang) for e in entries for m in e.messages]
        parts.append("")
    parts += [f"## {t['method']} {{ #method }}", "", t["method_text"].format(**n), ""]
    classes = Counter(r.cls for r in errs.excused.values())
    parts += [
        f"- {t['class_' + c.replace('-', '_')]}：{k}"
        if lang == "zh"
        else f"- {t['class_' + c.replace('-', '_')]}: {k}"
        for c, k in sorted(classes.items())
    ]
    pending = [
        c for c in errs.candidates if errs.excused.get(c["id"]) and errs.excused[c["id"]].cls == "pending"
    ]
    parts += ["", f'??? note "{t["pending"]}"', ""]
    parts += [f"    - {code_span(shown(c['message']))} <small>{c['file']}</small>" for c in pending]
    parts += ["", f'??? info "{t["files"]}"', ""]
    for f in errs.files:
        commit = f["read_at"]
        where = t["origin_" + f["origin"]]
        parts.append(f"    - `{f['path']}`{'，' if lang == 'zh' else ', '}{where} `{commit[:12]}`")
    parts.append("")
    return "\n".join(parts)


def queries(errs: Errors) -> list[dict]:
    """What a reader pastes into the search box for each answered message, per language,
    and the entry it should find first. A paste that two entries' messages share (the
    same later sentence) is the message's first sentence instead, which tells them
    apart."""
    entries_of: dict[str, set[str]] = {}
    for e in errs.entries:
        for m in e.messages:
            entries_of.setdefault(query(m), set()).add(e.id)
    out = []
    for e in errs.entries:
        for m in e.messages:
            pasted = query(m)
            if len(entries_of[pasted]) > 1:
                pasted = first_line(recorded(m))
            for lang in LANGS:
                out.append({"query": pasted, "lang": lang, "expect": f"{ERRORS_DIR}/{e.group}.md#{e.id}"})
    return out


def render_queries(errs: Errors) -> str:
    lines = [
        "# Generated by python -m tools errors write; do not edit. Search queries a reader would",
        "# paste: each answered error message's first sentence as PyTorch printed it in the",
        "# recorded run (the reader's own values in it), and the page#entry it should find first.",
        "# Rows of data/schemas/search-queries.schema.json, as in data/search-queries.yml.",
    ]
    for q in queries(errs):
        query = json.dumps(q["query"], ensure_ascii=False)
        lines.append(f"- {{query: {query}, lang: {q['lang']}, expect: {q['expect']}}}")
    return "\n".join(lines) + "\n"


def pages(errs: Errors) -> dict[Path, str]:
    out: dict[Path, str] = {}
    for lang in LANGS:
        out[DOCS / lang / ERRORS_DIR / "index.md"] = render_index(errs, lang)
        for group in errs.groups:
            if errs.in_group(group):
                out[DOCS / lang / ERRORS_DIR / f"{group}.md"] = render_group(errs, lang, group)
    out[QUERIES] = render_queries(errs)
    return out


def stale(errs: Errors | None = None) -> list[str]:
    errs = errs or load()
    gen = pages(errs)
    bad = [
        p.relative_to(ROOT).as_posix()
        for p, text in gen.items()
        if not p.is_file() or p.read_text("utf-8") != text
    ]
    for lang in LANGS:
        for extra in sorted((DOCS / lang / ERRORS_DIR).glob("*.md")):
            if extra not in gen:
                bad.append(extra.relative_to(ROOT).as_posix() + " (no group in the data; delete it)")
    return bad


def write() -> list[Path]:
    written = []
    for path, text in pages(load()).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written
