"""The API inventory's data, ``data/apis.yml``: read and validate it.

Each entry names the candidate APIs it covers (``tools.chapters.apis.candidates``),
the parameters that decide where gradients go (``params``; each one is used in the
evidence), the others with a reason (``other_params``; data only), two or three
sentences per language on what the API does to the graph, to gradients and to
memory, and the evidence: snippet sections that assert it, new ones under
``snippets/apis/<namespace>/`` or a section a chapter already shows. The
``out_of_scope`` groups excuse the other candidates, each with a one-line reason.

``load()`` checks the data against the files it points to; ``coverage()`` checks it
against the candidates of the pinned torch (it imports torch). A problem raises
``ApiError`` naming the entry and what to do.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tools.chapters.faq.load import join_lines, page_anchors
from tools.core import data as datafile
from tools.core import sections as markers
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT, rel

DATA = ROOT / "data" / "apis.yml"
SCHEMA = "apis.schema.json"
APIS_DIR = "apis"
RECORD_HINT = ".venv/bin/python -m tools snippets record {path}"


class ApiError(ToolError):
    """A bad entry in data/apis.yml; the message names the entry and the fix."""


def _fail(where: str, what: str) -> ApiError:
    return ApiError(f"data/apis.yml, entry {where}: {what}")


@dataclass
class Evidence:
    path: str  # snippets/x/y.py
    section: str
    notes: dict[str, list[str]] = field(default_factory=lambda: {lang: [] for lang in LANGS})

    @property
    def file(self) -> Path:
        return ROOT / self.path

    @property
    def include(self) -> str:
        """The include path, relative to snippets/."""
        return self.path.removeprefix("snippets/")

    @property
    def record_include(self) -> str:
        return self.include.removesuffix(".py") + ".out"


@dataclass
class Api:
    id: str
    namespace: str
    title: str
    covers: list[str]
    params: list[str]
    other_params: dict[str, str]
    short: dict[str, str]
    text: dict[str, str]
    evidence: list[Evidence]
    see: str | None = None
    deprecated: bool = False

    @property
    def page(self) -> str:
        return f"{APIS_DIR}/{self.namespace}.md"


@dataclass
class Excused:
    reason: dict[str, str]
    names: list[str]


@dataclass
class Inventory:
    namespaces: dict[str, dict[str, str]]
    apis: list[Api]
    out_of_scope: list[Excused]

    def in_namespace(self, namespace: str) -> list[Api]:
        return [a for a in self.apis if a.namespace == namespace]

    def covering(self) -> dict[str, Api]:
        """Candidate name -> the entry that covers it."""
        return {name: a for a in self.apis for name in a.covers}

    def excused(self) -> dict[str, Excused]:
        return {name: e for e in self.out_of_scope for name in e.names}


def sections(path: Path) -> dict[str, str]:
    return markers.named(path.read_text(encoding="utf-8"), rel(path))


# --------------------------------------------------------------------------- one entry
def _evidence(item: str | dict, where: str) -> Evidence:
    if isinstance(item, str):
        item = {"code": item}
    path, _, section = item["code"].partition(":")
    ev = Evidence(path, section)
    reused = not path.startswith(f"snippets/{APIS_DIR}/")
    if reused and any(f"notes_{lang}" in item for lang in LANGS):
        raise _fail(where, f"{path} is reused from its page, which explains it: remove notes_zh/notes_en.")
    for lang in LANGS:
        notes = item.get(f"notes_{lang}", [])
        ev.notes[lang] = _page_notes(ev, lang, where) if reused else [join_lines(n) for n in notes]
    _check_evidence(ev, where)
    return ev


_NOTE = re.compile(r"^(\d+)\.\s+(\S.*)$")


def _page_notes(ev: Evidence, lang: str, where: str) -> list[str]:
    """The annotations a reused section has on its own page: the numbered list after
    its code block (so the two pages explain it in the same words, and stay in step)."""
    from tools.pages.parse import owner_pages

    include = f'--8<-- "{ev.include}:{ev.section}"'
    for page in owner_pages(ev.file):
        path = DOCS / lang / page
        lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        at = next((i for i, line in enumerate(lines) if line.strip() == include), None)
        if at is not None:
            return [_rebase_links(n, page) for n in _list_after_fence(lines, at)]
    raise _fail(where, f"{ev.path}:{ev.section} is not embedded on its own page in docs/{lang}/.")


_LINK = re.compile(r"\]\((?!https?:|mailto:)([^)\s]*)\)")


def _rebase_links(note: str, page: str) -> str:
    """A relative link written on ``page`` made to work from a page under apis/."""

    def rebase(m: re.Match) -> str:
        target, _, anchor = m[1].partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(page), target)) if target else page
        return f"]({os.path.relpath(full, APIS_DIR)}{'#' + anchor if anchor else ''})"

    return _LINK.sub(rebase, note)


def _list_after_fence(lines: list[str], at: int) -> list[str]:
    end = next(i for i in range(at + 1, len(lines)) if lines[i].strip().startswith("```"))
    notes: list[str] = []
    for line in lines[end + 1 :]:
        m = _NOTE.match(line)
        if m:
            notes.append(m[2].strip())
        elif notes and line.startswith("    ") and line.strip():
            notes[-1] += " " + line.strip()
        elif line.strip() or notes:
            break
    return [join_lines(n) for n in notes]


def _check_evidence(ev: Evidence, where: str) -> None:
    if not ev.file.is_file():
        raise _fail(where, f"evidence file {ev.path} does not exist.")
    found = sections(ev.file)
    if ev.section not in found:
        raise _fail(where, f"evidence section {ev.section!r} is not in {ev.path} (has {sorted(found)}).")
    if not markers.assert_sources(ev.file, ev.section):
        raise _fail(
            where, f"evidence {ev.path}:{ev.section} asserts nothing: add the assert that proves the entry."
        )
    problem = markers.annotation_mismatch(found[ev.section], ev.notes, f"{ev.path}:{ev.section}")
    if problem:
        raise _fail(where, problem)
    record = ev.file.with_suffix(".out")
    if not record.is_file() or ev.section not in sections(record):
        hint = RECORD_HINT.format(path=ev.path)
        raise _fail(where, f"{ev.path} has no recorded output for section {ev.section!r}; run {hint}")


def _check_params(api: Api, where: str) -> None:
    """Each parameter that matters is used in the evidence (as a word)."""
    shown = " ".join(sections(ev.file)[ev.section] for ev in api.evidence)
    for name in api.params:
        if not re.search(rf"\b{re.escape(name)}\b", shown):
            raise _fail(where, f"parameter {name!r} is listed in params but no evidence section uses it.")
    both = sorted(set(api.params) & set(api.other_params))
    if both:
        raise _fail(where, f"{both} is in both params and other_params; keep it in one.")


def _check_see(api: Api, where: str) -> None:
    page, _, anchor = api.see.partition("#")
    for lang in LANGS:
        if not (DOCS / lang / page).is_file():
            raise _fail(where, f"see: docs/{lang}/{page} does not exist.")
        if anchor not in page_anchors(lang, page):
            raise _fail(where, f"see: docs/{lang}/{page} has no heading {{ #{anchor} }}.")


def _api(entry: dict, namespaces: dict) -> Api:
    where = entry["id"]
    if entry["namespace"] not in namespaces:
        raise _fail(where, f"unknown namespace {entry['namespace']!r}; use one of {list(namespaces)}.")
    api = Api(
        id=entry["id"],
        namespace=entry["namespace"],
        title=entry["title"],
        covers=list(entry["covers"]),
        params=list(entry.get("params", [])),
        other_params=dict(entry.get("other_params", {})),
        short={lang: join_lines(entry[f"short_{lang}"]) for lang in LANGS},
        text={lang: join_lines(entry[f"text_{lang}"]) for lang in LANGS},
        evidence=[_evidence(item, where) for item in entry["evidence"]],
        see=entry.get("see"),
        deprecated=bool(entry.get("deprecated", False)),
    )
    _check_params(api, where)
    if api.see:
        _check_see(api, where)
    return api


# --------------------------------------------------------------------------- the file
def load(path: Path = DATA) -> Inventory:
    """Read and validate the data file; raise ApiError naming the first bad entry."""
    data = datafile.load(path, SCHEMA, entries="apis", error=ApiError).data
    apis = [_api(e, data["namespaces"]) for e in data["apis"]]
    dupes = sorted(i for i, n in Counter(a.id for a in apis).items() if n > 1)
    if dupes:
        raise _fail(", ".join(dupes), "duplicate id.")
    excused = [
        Excused({lang: join_lines(g[f"reason_{lang}"]) for lang in LANGS}, list(g["names"]))
        for g in data["out_of_scope"]
    ]
    inv = Inventory(dict(data["namespaces"]), apis, excused)
    for ns in inv.namespaces:
        if not inv.in_namespace(ns):
            raise ApiError(f"data/apis.yml, namespace {ns!r}: has no entry; its page would be empty.")
    return inv


# --------------------------------------------------------------------------- the candidates
def _listed_twice(inv: Inventory) -> list[str]:
    names = [n for a in inv.apis for n in a.covers] + [n for e in inv.out_of_scope for n in e.names]
    return [
        f"{n} is listed {k} times (entries and out_of_scope): keep one"
        for n, k in Counter(names).items()
        if k > 1
    ]


def _param_entries(inv: Inventory) -> dict[str, set[str]]:
    """Candidate -> its parameters that have an entry of their own (``name:param``)."""
    out: dict[str, set[str]] = {}
    for api in inv.apis:
        for name in api.covers:
            owner, _, param = name.partition(":")
            if param:
                out.setdefault(owner, set()).add(param)
    return out


def _param_problems(api: Api, found: dict, elsewhere: dict[str, set[str]]) -> list[str]:
    whole = [n for n in api.covers if ":" not in n]
    known = {p for name in whole if name in found for p in found[name].params}
    own = {p for name in whole for p in elsewhere.get(name, ())}
    given = set(api.params) | set(api.other_params)
    out = [
        f"entry {api.id}: parameter {p!r} of {', '.join(whole)} is in neither params nor other_params"
        for p in sorted(known - given - own)
    ]
    out += [f"entry {api.id}: {p!r} is not a parameter of {', '.join(whole)}" for p in sorted(given - known)]
    out += [f"entry {api.id}: {p!r} has an entry of its own; drop it here" for p in sorted(given & own)]
    return out


def _param_entry_problems(inv: Inventory, found: dict) -> list[str]:
    out = []
    for api in inv.apis:
        for name in api.covers:
            owner, _, param = name.partition(":")
            if not param:
                continue
            if owner not in found or param not in found[owner].params:
                out.append(f"entry {api.id}: {name} is no parameter of a candidate of the pinned torch")
            elif found[owner].namespace != api.namespace:
                out.append(f"entry {api.id}: {name} belongs to namespace {found[owner].namespace!r}")
    return out


def coverage(inv: Inventory, candidates=None) -> list[str]:
    """What keeps the data from covering the candidates exactly: a candidate with
    neither an entry nor a reason, a name that is no candidate, a parameter left out.
    A ``name:param`` in ``covers`` is an entry for one parameter of a candidate."""
    if candidates is None:
        from tools.chapters.apis.candidates import candidates as introspect

        candidates = introspect()
    found = {c.name: c for c in candidates}
    covered = {n: a for n, a in inv.covering().items() if ":" not in n}
    excused = inv.excused()
    problems = _listed_twice(inv) + _param_entry_problems(inv, found)
    for c in candidates:
        if c.name not in covered and c.name not in excused:
            problems.append(
                f"{c.name} ({c.namespace}): no entry covers it and no out_of_scope group excuses it"
            )
        elif c.name in covered and covered[c.name].namespace != c.namespace:
            problems.append(f"entry {covered[c.name].id}: {c.name} belongs to namespace {c.namespace!r}")
    for name in sorted(set(covered) | set(excused)):
        if name not in found:
            problems.append(f"{name} is not a candidate of the pinned torch: fix the name or remove it")
    elsewhere = _param_entries(inv)
    for api in inv.apis:
        problems += _param_problems(api, found, elsewhere)
    return problems
