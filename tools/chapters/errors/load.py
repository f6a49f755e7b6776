"""The error data: ``data/errors.yml`` (kept by hand) against ``data/errors-candidates.yml``
(generated from PyTorch's source by ``python -m tools errors candidates``).

``data/errors.yml`` names the source files in scope (``sources:``), the groups of the
chapter (what the reader was doing), the entries (each answers one or more candidate
messages with a snippet section that raises each, the cause, the fix and a link) and
the rules that excuse the other candidates with a reason (``excused:``). ``load()``
returns an ``Errors`` in which every candidate is answered or excused, or raises
``ErrorsError`` naming what to fix: a candidate neither answered nor excused, an entry
message that is no longer a candidate, a rule that excuses nothing, a snippet section
that does not raise the message it answers.
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tools.chapters.faq.load import join_lines, page_anchors
from tools.core import data as datafile
from tools.core import sections as markers
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT, rel

DATA = ROOT / "data" / "errors.yml"
CANDIDATES = ROOT / "data" / "errors-candidates.yml"
SCHEMA = "errors.schema.json"
CANDIDATES_SCHEMA = "errors-candidates.schema.json"
ERRORS_DIR = "errors"
CANDIDATES_HINT = ".venv/bin/python -m tools errors candidates"
LOCATIONS = ROOT / "data" / "errors-locations.yml"
LOCATIONS_SCHEMA = "errors-locations.schema.json"


class ErrorsError(ToolError):
    """A bad entry in data/errors.yml (or a stale candidate list); the message says what to do."""


def _fail(where: str, what: str) -> ErrorsError:
    return ErrorsError(f"data/errors.yml, {where}: {what}")


def norm(text: str) -> str:
    return " ".join(text.split())


def pattern(text: str) -> re.Pattern:
    """``text`` as a regex: its placeholders ``{...}`` match anything."""
    parts = re.split(r"\{[^{}]*\}", norm(text))
    return re.compile(".*?".join(re.escape(p) for p in parts), re.S)


def shown(message: str) -> str:
    """A message as a reader sees it in a box: placeholders become ``…``."""
    return re.sub(r"\{[^{}]*\}", "…", message)


@dataclass
class Message:
    text: str
    raises: str  # snippets/<path>.py:<section>
    type: str = ""
    kind: str = "error"
    candidates: list[dict] = field(default_factory=list)

    @property
    def file(self) -> Path:
        return ROOT / self.raises.partition(":")[0]

    @property
    def section(self) -> str:
        return self.raises.partition(":")[2]

    @property
    def full(self) -> str:
        """The fullest candidate text this message answers (for the box on the page)."""
        return max((c["message"] for c in self.candidates), key=len)


@dataclass
class Entry:
    id: str
    group: str
    messages: list[Message]
    title: dict[str, str]
    cause: dict[str, str]
    fix_text: dict[str, str]
    fix: str | None
    see: str
    faq: str | None = None
    since: dict[str, str] | None = None
    order: int = 0


@dataclass
class Rule:
    cls: str
    reason: str
    via: list[str]
    files: list[str]
    functions: list[str]
    match: re.Pattern | None
    index: int

    def matches(self, c: dict) -> bool:
        if self.via and c["via"] not in self.via:
            return False
        if self.files and not any(fnmatch.fnmatchcase(c["file"], p) for p in self.files):
            return False
        if self.functions and not any(
            fnmatch.fnmatchcase(c.get("function") or "", p) for p in self.functions
        ):
            return False
        return not (self.match and not self.match.search(c["message"]))


@dataclass
class Errors:
    sources: list[str]
    groups: dict[str, dict[str, str]]
    entries: list[Entry]
    rules: list[Rule]
    candidates: list[dict]
    files: list[dict]
    torch_commit: str
    answered: dict[str, str] = field(default_factory=dict)  # candidate id -> entry id
    excused: dict[str, Rule] = field(default_factory=dict)  # candidate id -> rule

    def in_group(self, group: str) -> list[Entry]:
        return [e for e in self.entries if e.group == group]

    def entry(self, entry_id: str) -> Entry:
        return next(e for e in self.entries if e.id == entry_id)


# --------------------------------------------------------------------------- reading
def sources(path: Path = DATA) -> list:
    """The source files in scope (globs, or ``{files: GLOB, match: REGEX}``), for the extraction."""
    try:
        data = datafile.read_yaml(path).data
    except datafile.DataError as err:
        raise ErrorsError(str(err)) from None
    if not isinstance(data, dict) or not isinstance(data.get("sources"), list):
        raise ErrorsError(f"{rel(path)}: sources: must be a list of file globs.")
    out = []
    for p in data["sources"]:
        if isinstance(p, dict):
            if set(p) != {"files", "match"}:
                raise ErrorsError(
                    f"{rel(path)}: a source {p!r} must be a glob or {{files: GLOB, match: REGEX}}."
                )
            try:
                re.compile(p["match"])
            except re.error as err:
                raise ErrorsError(
                    f"{rel(path)}: source {p['files']}: match is not a regular expression: {err}."
                ) from None
            out.append({"files": str(p["files"]), "match": str(p["match"])})
        else:
            out.append(str(p))
    return out


def locations(path: Path = LOCATIONS) -> list[dict]:
    """Where the search tool found the C++ messages the binaries do not locate
    (``data/errors-locations.yml``, kept by hand)."""
    if not path.is_file():
        return []
    data = datafile.load(path, LOCATIONS_SCHEMA, entries="locations", error=ErrorsError).data
    return data["locations"]


def _text(entry: dict, key: str, where: str) -> dict[str, str]:
    return {lang: join_lines(str(entry[f"{key}_{lang}"])) for lang in LANGS}


def _sections(path: Path) -> dict[str, str]:
    return markers.named(path.read_text(encoding="utf-8"), rel(path))


def _check_section(ref: str, where: str, what: str, need_assert: bool) -> str:
    path, _, section = ref.partition(":")
    file = ROOT / path
    if not (path.startswith("snippets/") and path.endswith(".py") and section):
        raise _fail(where, f"{what} {ref!r} must be snippets/<path>.py:<section>.")
    if not file.is_file():
        raise _fail(where, f"{what}: {path} does not exist.")
    found = _sections(file)
    if section not in found:
        raise _fail(where, f"{what}: section {section!r} is not in {path} (has {sorted(found)}).")
    if need_assert and not re.search(r"^\s*assert\b", found[section], re.M):
        raise _fail(where, f"{what} {ref} has no assert: the fix must show that it works.")
    record = file.with_suffix(".out")
    if not record.is_file() or section not in _sections(record):
        raise _fail(
            where,
            f"{path} has no recorded output for section {section!r}; "
            f"run .venv/bin/python -m tools snippets record {path}",
        )
    return _sections(record)[section]


def _check_raises(m: Message, where: str) -> None:
    from tools.snippets.source import parse

    out = _check_section(m.raises, where, "raises", need_assert=False)
    expects = parse(m.file).expects
    declared = expects.get(m.section)
    if declared is None:
        raise _fail(
            where,
            f"{m.raises} declares no '# raises: {m.section} Type' or '# warns: {m.section} Type': "
            "the section must raise (or warn) the message it answers.",
        )
    if not pattern(m.text).search(norm(out)):
        raise _fail(
            where,
            f"the recorded output of {m.raises} does not show {m.text!r}; the section must raise "
            "this message (re-record it, or quote the message as PyTorch prints it).",
        )


def _check_link(link: str, where: str, what: str) -> None:
    page, _, anchor = link.partition("#")
    for lang in LANGS:
        if not (DOCS / lang / page).is_file():
            raise _fail(where, f"{what}: docs/{lang}/{page} does not exist.")
        if anchor and anchor not in page_anchors(lang, page) and not page.startswith("faq/"):
            raise _fail(where, f"{what}: docs/{lang}/{page} has no heading {{ #{anchor} }}.")
        if (
            anchor
            and page.startswith("faq/")
            and f"{{ #{anchor} }}" not in (DOCS / lang / page).read_text("utf-8")
        ):
            raise _fail(where, f"{what}: docs/{lang}/{page} has no entry {{ #{anchor} }}.")


def _entry(raw: dict, index: int, groups: dict, candidates: list[dict]) -> Entry:
    where = f"entry {raw['id']}"
    if raw["group"] not in groups:
        raise _fail(where, f"unknown group {raw['group']!r}; use one of {list(groups)}.")
    messages = []
    for m in raw["messages"]:
        msg = Message(text=norm(m["text"]), raises=m["raises"])
        msg.candidates = [c for c in candidates if msg.text in norm(c["message"])]
        exact = [c for c in msg.candidates if norm(c["message"]) == msg.text]
        msg.candidates = exact or msg.candidates  # "a leaf ..." is also in "a view of a leaf ..."
        if not msg.candidates:
            raise _fail(
                where,
                f"message {msg.text!r} is not (or no longer) a candidate in data/errors-candidates.yml: "
                "quote the fixed part of a candidate message, or remove it.",
            )
        msg.type = msg.candidates[0]["type"]
        msg.kind = msg.candidates[0]["kind"]
        _check_raises(msg, where)
        messages.append(msg)
    entry = Entry(
        id=raw["id"],
        group=raw["group"],
        messages=messages,
        title=_text(raw, "title", where),
        cause=_text(raw, "cause", where),
        fix_text=_text(raw, "fix", where),
        fix=raw.get("fix_code"),
        see=raw["see"],
        faq=raw.get("faq"),
        since=_text(raw, "since", where) if "since_zh" in raw else None,
        order=index,
    )
    if entry.fix:
        _check_section(entry.fix, where, "fix_code", need_assert=True)
    _check_link(entry.see, where, "see")
    if entry.faq:
        _check_link(entry.faq, where, "faq")
    return entry


def _rule(raw: dict, index: int) -> Rule:
    try:
        match = re.compile(raw["match"]) if raw.get("match") else None
    except re.error as err:
        raise _fail(f"excused rule {index + 1}", f"match is not a regular expression: {err}.") from None
    return Rule(
        cls=raw["class"],
        reason=raw["reason"],
        via=list(raw.get("via", [])),
        files=list(raw.get("files", [])),
        functions=list(raw.get("functions", [])),
        match=match,
        index=index,
    )


def read_candidates(path: Path = CANDIDATES) -> dict:
    if not path.is_file():
        raise ErrorsError(f"{rel(path)} is missing; run {CANDIDATES_HINT}")
    return datafile.load(path, CANDIDATES_SCHEMA, entries="candidates", error=ErrorsError).data


def _check_locations(found: list[dict]) -> None:
    """Each location the search tool found still locates a candidate."""
    for loc in locations():
        if not any(c.get("where") == "search" and loc["match"] in c["message"] for c in found):
            raise ErrorsError(
                f"data/errors-locations.yml: {loc['match']!r} locates no candidate (the binaries "
                f"no longer hold it, or locate it themselves): remove it, or run {CANDIDATES_HINT}"
            )


def load(path: Path = DATA, candidates_path: Path = CANDIDATES) -> Errors:
    """Read and validate both files; raise ErrorsError naming the first problem."""
    data = datafile.load(path, SCHEMA, entries="entries", error=ErrorsError).data
    cands = read_candidates(candidates_path)
    if cands["sources"] != data["sources"]:
        raise ErrorsError(
            f"{rel(candidates_path)} was made for other sources than data/errors.yml lists; "
            f"run {CANDIDATES_HINT}"
        )
    found = cands["candidates"]
    groups = data["groups"]
    entries = [_entry(e, i, groups, found) for i, e in enumerate(data["entries"])]
    dupes = sorted(i for i, n in Counter(e.id for e in entries).items() if n > 1)
    if dupes:
        raise _fail(f"entry {', '.join(dupes)}", "duplicate id.")
    rules = [_rule(r, i) for i, r in enumerate(data["excused"])]
    errs = Errors(
        sources=data["sources"],
        groups=groups,
        entries=entries,
        rules=rules,
        candidates=found,
        files=cands["files"],
        torch_commit=cands["torch_commit"],
    )
    for e in entries:
        for m in e.messages:
            for c in m.candidates:
                errs.answered.setdefault(c["id"], e.id)
    used: set[int] = set()
    for c in found:
        if c["id"] in errs.answered:
            continue
        rule = next((r for r in rules if r.matches(c)), None)
        if rule is not None:
            errs.excused[c["id"]] = rule
            used.add(rule.index)
    _check_locations(found)
    unused = [r for r in rules if r.index not in used]
    if unused:
        r = unused[0]
        raise _fail(
            f"excused rule {r.index + 1} ({r.reason!r})",
            "excuses no candidate (every one it matches is answered, or none matches): remove it or fix it.",
        )
    open_ = [c for c in found if c["id"] not in errs.answered and c["id"] not in errs.excused]
    if open_:
        listed = "; ".join(f"{c['file']}:{c['line']} {c['message'][:70]!r}" for c in open_[:5])
        raise ErrorsError(
            f"data/errors.yml: {len(open_)} candidate message(s) neither answered nor excused, "
            f"e.g. {listed}. "
            "Answer each with an entry, or excuse it with a reason under excused:."
        )
    for e in entries:
        if e.group not in groups:
            raise _fail(f"entry {e.id}", "unknown group.")
    return errs
