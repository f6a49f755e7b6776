"""Notes on which torch releases each page's code was checked on.

Generated from ``data/torch-versions/*.json`` (written by ``make test-versions``,
see ``tools.versions.cli``), in the page's language:

- under the page title, one line listing the releases the page's code ran on,
  then in words what differs on which of them ("2.4–2.10: the error names the node
  `SigmoidBackward0`, not `Sigmoid` ..."), one sentence per entry of
  ``data/torch-versions/differences.yml`` (``tools.versions.differences``); a result
  classed *environment* is shown as not checked;
- under an output block whose section printed something else on some release,
  a collapsible note: the same sentences for that block, which of the checked
  releases print what, and the other releases' outputs, one tab per distinct output;
- after an inline code span of the prose that quotes a recorded output
  (``output 0 of Exp``) which some release does not print, the releases that
  print it.

A result made before the snippet's last change (its hash differs) is *stale*:
it is listed as "checked before the last change", never counted as a pass.
The results are read by tools/versions/results.py (``load_matrix``); the
MkDocs hook that adds the notes to each page is tools/versions/hook.py.
"""

from __future__ import annotations

import functools
import html
import re

from tools.core.i18n import UI
from tools.core.repo import ROOT, SNIPPETS
from tools.pages.parse import FENCE
from tools.pages.parse import SECTION_INCLUDE as INCLUDE
from tools.versions import differences as why
from tools.versions import results as tv
from tools.versions.results import Matrix

CODE_SPAN = re.compile(r"(?<!`)`(?P<code>[^`\n]+?)`(?!`)")
SPAN_MIN = 3  # `x`, `y`: too short to tell anything apart
# A span that is a call, an attribute or a short name (`torch.no_grad()`, `x.grad`,
# `detach().clone()`, `a`) names an API; it never quotes an output, whatever prose is
# around it. A longer bare word (`output 0 of `Exp``) may still be part of a quote.
NAME_OR_CALL = re.compile(r"[A-Za-z_][\w.]*(\([\w.,= ]*\))?(\.[A-Za-z_]\w*(\([\w.,= ]*\))?)*")

TEXT = UI["versions"]


def _snippet_rel(include: str) -> str:
    return "snippets/" + re.sub(r"\.out$", ".py", include)


def _join(versions: list[str], lang: str) -> str:
    return TEXT[lang]["and"].join(versions)


# --------------------------------------------------------------------------- page line
def _html(markdown: str) -> str:
    """A sentence of the data (code spans in backticks) as HTML, for the raw-HTML line."""
    parts = re.split(r"`([^`]+)`", markdown)
    return "".join(f"<code>{html.escape(p)}</code>" if i % 2 else html.escape(p) for i, p in enumerate(parts))


def differences(matrix: Matrix, blocks: list[tuple[str, str]], lang: str) -> list[str]:
    """What differs in ``blocks`` (snippet, section) on the checked releases, one
    Markdown sentence per class entry (differences.yml), in the order of the blocks."""
    found: dict[str, str] = {}
    unclassified: list[str] = []
    for snippet, name in blocks:
        lines = tv.section_lines(snippet).get(name)
        if lines is None:
            continue
        for version in matrix.versions:
            if matrix.section(version, snippet, name, *lines).kind not in why.DIFFERENT:
                continue
            d = matrix.why(version, snippet, name)
            if d is None:
                unclassified.append(version)
            elif d.id not in found:
                found[d.id] = why.sentence(d, matrix.versions, lang)
    out = list(found.values())
    if unclassified:  # the build refuses these; synthetic data only
        versions = TEXT[lang]["and"].join(why.runs(set(unclassified), matrix.versions))
        out.append(TEXT[lang]["unclassified"].format(versions=versions))
    return out


def page_line(
    matrix: Matrix, snippets: list[str], lang: str, blocks: list[tuple[str, str]] | None = None
) -> str:
    """The line under the title: which releases, then in words what differs."""
    t = TEXT[lang]
    parts, stale, missing = [], {}, []
    for version in matrix.versions:
        if version == tv.REFERENCE:  # the records: `make test` checks them on every commit
            parts.append(t["reference"].format(version=f"<strong>{html.escape(version)}</strong>"))
            continue
        entries = {s: matrix.entry_shown(version, s) for s in snippets}
        if any(e is None for e in entries.values()):
            missing.append(version)
            continue
        fresh = {s: e for s, e in entries.items() if not matrix.stale(version, s)}
        for s in entries:
            if s not in fresh:
                stale.setdefault(version, []).append(s)
        if not fresh:
            continue
        label = html.escape(version)
        if {tv.classify(e) for e in fresh.values()} == {"skipped"}:
            label += f" ({t['cuda']})"
        parts.append(label)
    if not parts and not stale and not missing:
        return ""
    sep = "" if lang == "zh" else " "  # between sentences
    text = t["line"].format(versions=_join(parts, lang)) if parts else ""
    if blocks is None:
        blocks = [(s, n) for s in snippets for n in tv.section_lines(s)]
    for sentence in differences(matrix, blocks, lang):
        text += sep + _html(sentence)
    by_files: dict[tuple[str, ...], list[str]] = {}
    for version, files in stale.items():
        by_files.setdefault(tuple(files), []).append(version)
    for files, versions in by_files.items():
        names = _join([f"<code>{html.escape(f)}</code>" for f in files], lang)
        text += sep + t["stale"].format(versions=_join(versions, lang), files=names)
    if missing:
        text += sep + t["missing"].format(versions=_join(missing, lang))
    return f'<p class="torch-versions"><small>{text.strip()}</small></p>'


# --------------------------------------------------------------------------- section note
def section_note(matrix: Matrix, snippet: str, name: str, lang: str, indent: str) -> str:
    """The collapsible note under a block, or "" when every release agrees."""
    t = TEXT[lang]
    lines = tv.section_lines(snippet).get(name)
    if lines is None:
        return ""
    results = {v: matrix.section(v, snippet, name, *lines) for v in matrix.versions}
    if all(r.kind in ("same", "stale", "missing", "cuda") for r in results.values()):
        return ""
    same = [v for v, r in results.items() if r.kind == "same"]
    outputs: dict[str, list[str]] = {}
    for v, r in results.items():
        if r.kind == "differs" or (r.kind == "failed" and r.output):
            outputs.setdefault(r.output, []).append(v)
    body: list[str] = differences(matrix, [(snippet, name)], lang)
    if same:
        differing = sorted((v for vs in outputs.values() for v in vs), key=tv.version_key)  # in tabs
        first, last = min(same, key=tv.version_key), max(same, key=tv.version_key)
        if differing and all(tv.version_key(d) < tv.version_key(first) for d in differing):
            sentence = t["since"].format(first=first, others=_join(differing, lang))
        elif differing and all(tv.version_key(d) > tv.version_key(last) for d in differing):
            sentence = t["until"].format(last=last, others=_join(differing, lang))
        else:
            sentence = t["same" if len(same) == 1 else "same_many"].format(versions=_join(same, lang))
        body.append(sentence)
    failed: dict[tuple, list[str]] = {}
    for v, r in results.items():
        if r.kind == "failed":
            failed.setdefault((r.line, r.code, r.message), []).append(v)
    for (line, code, message), versions in failed.items():
        if line and code:
            body.append(
                t["failed"].format(
                    versions=_join(versions, lang),
                    line=line,
                    file=snippet,
                    code=code.replace("`", "'"),
                    message=f"`{message}`",
                )
            )
        else:
            body.append(t["failed_short"].format(versions=_join(versions, lang), message=f"`{message}`"))
    not_reached = [v for v, r in results.items() if r.kind == "not-reached"]
    if not_reached:
        body.append(t["not_reached"].format(versions=_join(not_reached, lang), file=snippet))
    out = ["", f'{indent}??? note other-releases "{t["title"]}"', ""]
    for paragraph in body:
        out += [f"{indent}    {paragraph}", ""]
    recorded = _recorded(snippet, name)
    if outputs and recorded is not None:
        out += [f"{indent}    {t['diff']}", ""]
    for text, versions in outputs.items():
        out += [f'{indent}    === "{t["tab"].format(versions=_join(versions, lang))}"', ""]
        lines = _difference(recorded, text) if recorded is not None else text.rstrip("\n").split("\n")
        out += [f"{indent}        ``` {'diff' if recorded is not None else 'text'}"]
        out += [f"{indent}        {line}".rstrip() for line in lines]
        out += [f"{indent}        ```", ""]
    return "\n".join(out)


def _recorded(snippet: str, name: str) -> str | None:
    """The section's output as the page shows it (the record), or None."""
    record = (ROOT / snippet).with_suffix(".out")
    if not record.is_file():
        return None
    return tv.sections(record.read_text(encoding="utf-8"), snippet).get(name)


def _difference(recorded: str, other: str, context: int = 1) -> list[str]:
    """Another release's output as the lines that differ from the page's (``-``) and
    what it prints instead (``+``), with a line of context; ``…`` where lines are left out."""
    import difflib

    before, after = recorded.rstrip("\n").split("\n"), other.rstrip("\n").split("\n")
    out: list[str] = []
    for group in difflib.SequenceMatcher(None, before, after, autojunk=False).get_grouped_opcodes(context):
        if out:
            out.append("…")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [f"  {line}" for line in before[i1:i2]]
                continue
            out += [f"- {piece}" for line in before[i1:i2] for piece in _fit(line)]
            out += [f"+ {piece}" for line in after[j1:j2] for piece in _fit(line)]
    return out or [f"  {line}" for line in after]


def _fit(line: str, width: int = 77) -> list[str]:
    """A line of the difference at most ``width`` columns (79 with the diff mark):
    wrapped at spaces, and a word longer than that (a URL) cut, so no line runs past
    the text column."""
    import textwrap

    return textwrap.wrap(line, width, break_on_hyphens=False) or [line]


# --------------------------------------------------------------------------- prose spans
def span_versions(matrix: Matrix, records: dict[tuple[str, str], str], span: str) -> list[str] | None:
    """Releases that print ``span`` where the page's records print it; None when all do
    (or when nothing says otherwise)."""
    printing: set[str] = set()
    known: set[str] = set()
    hit = False
    span = _flat(span)  # records wrap long lines at word boundaries
    for (snippet, name), recorded in records.items():
        if not _quotes(recorded, span):
            continue
        hit = True
        lines = tv.section_lines(snippet).get(name)
        if lines is None:
            continue
        for v in matrix.versions:
            r = matrix.section(v, snippet, name, *lines)
            if r.kind == "same":
                printing.add(v)
                known.add(v)
            elif r.kind in ("differs", "failed") and r.output is not None:
                known.add(v)
                if _quotes(r.output, span):
                    printing.add(v)
    if not hit or not (known - printing):
        return None
    return sorted(printing, key=tv.version_key)


def is_api_name(span: str) -> bool:
    span = span.strip()
    return bool(NAME_OR_CALL.fullmatch(span)) and ("(" in span or "." in span or len(span) < SPAN_MIN)


def _quote(before: str, span: str, records: dict[tuple[str, str], str]) -> str | None:
    """The output text a code span quotes, or None if it quotes none.

    ``output 0 of `Exp` `` quotes "output 0 of Exp": up to four words of prose
    before the span count when they and the span appear together in a record.
    A lone identifier (`True`, `grad_fn`) names something rather than quoting
    an output, so only a quote of two words or more, or with punctuation such as
    ``=``, counts; a span that is itself a name or a call (``NAME_OR_CALL``) never
    does, even with prose before it."""
    if is_api_name(span):
        return None
    words = re.sub(r"`[^`]*`", " ", before).split()
    found = None
    for k in range(0, 5):
        if k > len(words):
            break
        candidate = " ".join([*words[len(words) - k :], span]) if k else span
        if any(_quotes(text, candidate) for text in records.values()):
            found = candidate
    if found is None or len(found) < SPAN_MIN:
        return None
    if " " not in found and re.fullmatch(r"[\w.]+", found):
        return None
    return found


@functools.lru_cache(maxsize=4096)
def _flat(text: str) -> str:
    return " ".join(text.split())


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _quotes(output: str, span: str) -> bool:
    """Whether ``output`` prints ``span`` as whole words (``Sigmoid`` is not in
    ``SigmoidBackward0``), whitespace-insensitively.

    A plain substring search with a look at the characters around each hit: a
    regular expression per span overflows ``re``'s cache and dominated the build."""
    hay, needle = _flat(output), _flat(span)
    if not needle:
        return False
    start = hay.find(needle)
    while start != -1:
        end = start + len(needle)
        if not (start and _is_word(hay[start - 1])) and not (end < len(hay) and _is_word(hay[end])):
            return True
        start = hay.find(needle, start + 1)
    return False


def _span_label(versions: list[str], matrix: Matrix, lang: str) -> str:
    t = TEXT[lang]
    checked = sorted(matrix.versions, key=tv.version_key)
    if versions and checked[checked.index(versions[0]) :] == versions:
        return t["span_since"].format(first=versions[0])
    return t["span"].format(versions=_join(versions, lang))


# --------------------------------------------------------------------------- the page
def _page_snippets(markdown: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The snippets a page includes, and its blocks (snippet, section) in page order."""
    includes = [m for m in (INCLUDE.match(line) for line in markdown.split("\n")) if m]
    snippets = sorted({_snippet_rel(m["path"]) for m in includes})
    snippets = [s for s in snippets if (ROOT / s).exists()]
    blocks: list[tuple[str, str]] = []
    for m in includes:
        snippet = _snippet_rel(m["path"])
        if snippet not in snippets:
            continue
        names = [m["section"]] if m["section"] else list(tv.section_lines(snippet))
        blocks += [(snippet, n) for n in names if (snippet, n) not in blocks]
    return snippets, blocks


def version_line(markdown: str, matrix: Matrix, lang: str) -> str:
    """The page's version line (which releases its code ran on, and what differs),
    as HTML, or "" for a page without code; tools/build/machinery.py places it."""
    snippets, blocks = _page_snippets(markdown)
    if not snippets or not matrix.runs:
        return ""
    return page_line(matrix, snippets, lang, blocks)


def annotate(markdown: str, matrix: Matrix, lang: str) -> str:
    """The page's Markdown with the notes under its output blocks and the marks after
    quoted outputs (tools/versions/markdown.py applies it to every page)."""
    includes = [INCLUDE.match(line) for line in markdown.split("\n")]
    snippets, _ = _page_snippets(markdown)
    if not snippets or not matrix.runs:
        return markdown
    records: dict[tuple[str, str], str] = {}
    for m in includes:
        if m and m["ext"] == "out" and m["section"]:
            path = SNIPPETS / m["path"]
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            records[(_snippet_rel(m["path"]), m["section"])] = tv.sections(text, m["path"]).get(
                m["section"], ""
            )
    text = _mark_spans(markdown, matrix, records, lang)
    return _add_notes(text, matrix, lang, {key for key in records})


def _add_notes(text: str, matrix: Matrix, lang: str, out_sections: set[tuple[str, str]]) -> str:
    """A note after the fence that closes each output include (or a sectioned code
    include that has no output block on the page)."""
    result: list[str] = []
    pending: tuple[str, str] | None = None
    in_fence: str | None = None
    for line in text.split("\n"):
        result.append(line)
        m = INCLUDE.match(line)
        if m and m["section"]:
            key = (_snippet_rel(m["path"]), m["section"])
            if m["ext"] == "out" or key not in out_sections:
                pending = key
            continue
        fence = FENCE.match(line)
        if not fence:
            continue
        if in_fence is None:
            in_fence = fence["fence"]
        elif fence["fence"][0] == in_fence[0] and len(fence["fence"]) >= len(in_fence):
            in_fence = None
            if pending:
                note = section_note(matrix, *pending, lang, fence["indent"])
                if note:
                    result.extend(note.split("\n"))
                pending = None
    return "\n".join(result)


def _mark_spans(text: str, matrix: Matrix, records: dict[tuple[str, str], str], lang: str) -> str:
    out, fence = [], None
    for line in text.split("\n"):
        f = FENCE.match(line)
        if f:
            fence = None if fence else f["fence"]
            out.append(line)
            continue
        if fence or line.lstrip().startswith("#") or "--8<--" in line:
            out.append(line)
            continue

        marks: dict[int, list[str]] = {}  # sentence end -> the labels of its quotes
        for m in CODE_SPAN.finditer(line):
            quote = _quote(line[: m.start()], m["code"], records)
            versions = span_versions(matrix, records, quote) if quote is not None else None
            if versions is None:
                continue
            label = _span_label(versions, matrix, lang)
            at = _sentence_end(line, m.end())
            if label not in marks.setdefault(at, []):
                marks[at].append(label)
        for at in sorted(marks, reverse=True):  # a note at the end of the sentence, not mid-quote
            sup = "".join(f'<sup class="torch-versions">{html.escape(label)}</sup>' for label in marks[at])
            line = line[:at] + sup + line[at:]
        out.append(line)
    return "\n".join(out)


_SENTENCE_END = re.compile(r"[。！？；]|[.!?;:](?=\s|$)")


def _sentence_end(line: str, start: int) -> int:
    """Where the sentence around ``start`` ends: after its closing punctuation (outside
    code spans), or the end of the line."""
    spans = [(m.start(), m.end()) for m in CODE_SPAN.finditer(line)]
    for m in _SENTENCE_END.finditer(line, start):
        if not any(a <= m.start() < b for a, b in spans):
            return m.end()
    return len(line.rstrip())
