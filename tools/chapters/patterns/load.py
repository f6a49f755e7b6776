"""The pattern inventory, ``data/patterns.yml``: read and validate it.

Each entry is a training pattern that stops or reroutes gradients, found in widely
used repositories: its idiom as the repositories write it (a snippet section of at
most ``MAX_IDIOM_LINES`` lines), what goes wrong without it (a section that asserts
or raises, or a link to the page that shows it), and two or three repositories that
use it, linked by path, line and commit. ``load()`` returns ``Patterns``; a bad entry
raises ``PatternError`` naming the entry and what to fix.

The pages are rendered by ``tools.chapters.patterns.render`` and written by
``python -m tools patterns write``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tools.core import data as datafile
from tools.core import sections as markers
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT, rel
from tools.pages.parse import anchors

DATA = ROOT / "data" / "patterns.yml"
SCHEMA = "patterns.schema.json"  # data/schemas/: the fields and their shapes
PATTERNS_DIR = "patterns"
MAX_IDIOM_LINES = 15  # non-blank lines a reader sees for one idiom
RESERVED = ("setup", "sources")  # anchors every generated page has
RECORD_HINT = ".venv/bin/python -m tools snippets record {path}"

_MARKER = re.compile(r"#\s*\((\d+)\)!")
_ASSERT = re.compile(r"^\s*assert\b", re.M)


class PatternError(ToolError):
    """A bad entry in data/patterns.yml; the message names the entry and the fix."""


def _fail(where: str, what: str) -> PatternError:
    return PatternError(f"data/patterns.yml, {where}: {what}")


@dataclass
class Section:
    """A snippet section: ``snippets/patterns/<page>/<file>.py:<name>``, with its notes."""

    ref: str
    notes: dict[str, list[str]] = field(default_factory=dict)

    @property
    def file(self) -> Path:
        return ROOT / self.ref.partition(":")[0]

    @property
    def name(self) -> str:
        return self.ref.partition(":")[2]

    @property
    def include(self) -> str:
        """The path pymdownx.snippets reads, relative to snippets/."""
        return self.ref.partition(":")[0].removeprefix("snippets/")


@dataclass
class Repo:
    repo: str
    path: str
    line: int
    commit: str

    @property
    def url(self) -> str:
        return f"https://github.com/{self.repo}/blob/{self.commit}/{self.path}#L{self.line}"


@dataclass
class Pattern:
    id: str
    page: str
    title: dict[str, str]
    how: str
    answer: dict[str, str]
    idiom: Section
    failure_text: dict[str, str]
    failure: Section | None
    failure_see: str | None
    see: list[str]
    repos: list[Repo]
    search: dict


@dataclass
class Page:
    key: str
    title: dict[str, str]
    description: dict[str, str]
    intro: dict[str, str]
    setup: Section


@dataclass
class Patterns:
    pages: dict[str, Page]
    patterns: list[Pattern]

    def on(self, page: str) -> list[Pattern]:
        """The patterns of one page, in the data's order."""
        return [p for p in self.patterns if p.page == page]


def join_lines(text: str) -> str:
    """One line; a line break inside Chinese text (YAML folding) leaves no space."""
    from tools.chapters.faq.load import join_lines as join

    return join(text)


def _both(entry: dict, key: str) -> dict[str, str]:
    return {lang: join_lines(entry[f"{key}_{lang}"]) for lang in LANGS}


def _section(entry: dict, key: str) -> Section:
    notes = {lang: [join_lines(n) for n in entry.get(f"{key}_notes_{lang}", [])] for lang in LANGS}
    return Section(str(entry[key]), notes)


def _pattern(entry: dict) -> Pattern:
    failure = _section(entry, "failure") if "failure" in entry else None
    return Pattern(
        id=entry["id"],
        page=entry["page"],
        title=_both(entry, "title"),
        how=entry["how"],
        answer=_both(entry, "answer"),
        idiom=_section(entry, "idiom"),
        failure_text=_both(entry, "failure"),
        failure=failure,
        failure_see=entry.get("failure_see"),
        see=list(entry.get("see", [])),
        repos=[Repo(**r) for r in entry["repos"]],
        search=dict(entry["search"]),
    )


def _page(key: str, entry: dict) -> Page:
    return Page(
        key=key,
        title=_both(entry, "title"),
        description=_both(entry, "description"),
        intro=_both(entry, "intro"),
        setup=_section(entry, "setup"),
    )


# --------------------------------------------------------------------------- checks
def _check_section(s: Section, page: str, where: str, *, check: bool) -> str:
    """The section's code; it exists under the page's folder, is recorded, its notes
    match its markers, and (``check``) it asserts or is declared to raise."""
    folder = f"snippets/{PATTERNS_DIR}/{page}/"
    if not s.ref.startswith(folder):
        raise _fail(where, f"{s.ref!r} must be a section of a snippet under {folder} (its page's folder).")
    if not s.file.is_file():
        raise _fail(where, f"{rel(s.file)} does not exist.")
    found = markers.named(s.file.read_text(encoding="utf-8"), rel(s.file))
    if s.name not in found:
        raise _fail(where, f"section {s.name!r} is not in {rel(s.file)} (it has {sorted(found)}).")
    code = found[s.name]
    numbers = [int(n) for n in _MARKER.findall(code)]
    if numbers != list(range(1, len(numbers) + 1)):
        raise _fail(
            where, f"annotation markers in {s.ref} must be (1)!, (2)!, ... in order; found {numbers}."
        )
    for lang in LANGS:
        if len(s.notes[lang]) != len(numbers):
            raise _fail(
                where, f"{s.ref} has {len(numbers)} marker(s) # (n)! but {len(s.notes[lang])} {lang} note(s)."
            )
    if check and not markers.assert_sources(s.file, s.name):
        raise _fail(
            where, f"{s.ref} neither asserts nor is declared '# raises:': show the failure with a check."
        )
    record = s.file.with_suffix(".out")
    if not record.is_file() or s.name not in markers.named(record.read_text(encoding="utf-8"), rel(record)):
        raise _fail(where, f"{s.ref} has no recorded output; run {RECORD_HINT.format(path=rel(s.file))}")
    return code


def _check_link(link: str, where: str) -> None:
    page, _, anchor = link.partition("#")
    for lang in LANGS:
        path = DOCS / lang / page
        if not path.is_file():
            raise _fail(where, f"{link!r}: docs/{lang}/{page} does not exist.")
        if anchor not in anchors(path.read_text(encoding="utf-8")):
            raise _fail(where, f"{link!r}: docs/{lang}/{page} has no heading {{ #{anchor} }}.")


def _check_pattern(p: Pattern, pages: dict[str, Page]) -> None:
    where = f"entry {p.id}"
    if p.page not in pages:
        raise _fail(where, f"unknown page {p.page!r}; use one of {sorted(pages)}.")
    if p.id in RESERVED:
        raise _fail(where, f"the id {p.id!r} is an anchor every page already has; pick another.")
    code = _check_section(p.idiom, p.page, where, check=False)
    shown = [line for line in code.splitlines() if line.strip()]
    if len(shown) > MAX_IDIOM_LINES:
        raise _fail(where, f"the idiom {p.idiom.ref} shows {len(shown)} lines; keep it to {MAX_IDIOM_LINES}.")
    if p.failure is not None:
        _check_section(p.failure, p.page, where, check=True)
    for link in ([p.failure_see] if p.failure_see else []) + p.see:
        _check_link(link, where)
    names = [r.repo for r in p.repos]
    if len(set(names)) != len(names):
        raise _fail(where, f"repos lists a repository twice ({names}); give two or three different ones.")


def _check_order(model: Patterns) -> None:
    """Within a snippet file, the sections a page shows come in the page's order: the
    page's code runs top to bottom as one script, the file alone in file order, and
    both must print the same records."""
    for key, page in model.pages.items():
        shown: dict[Path, list[str]] = {}
        for s in [page.setup] + [s for p in model.on(key) for s in (p.idiom, p.failure) if s]:
            shown.setdefault(s.file, []).append(s.name)
        for file, names in shown.items():
            order = markers.names(file.read_text(encoding="utf-8"))
            if sorted(names, key=order.index) != names:
                raise _fail(
                    f"page {key}",
                    f"{rel(file)} has its sections in another order than the page shows them "
                    f"({names}); reorder the file or the data.",
                )


def _read(path: Path) -> dict:
    return datafile.load(path, SCHEMA, entries="patterns", error=PatternError).data


def load(path: Path = DATA) -> Patterns:
    """Read and validate the data file; raise PatternError naming the first bad entry."""
    data = _read(path)
    pages = {key: _page(key, entry) for key, entry in data["pages"].items()}
    patterns = [_pattern(e) for e in data["patterns"]]
    dupes = sorted(i for i, n in Counter(p.id for p in patterns).items() if n > 1)
    if dupes:
        raise _fail(f"entry {', '.join(dupes)}", "duplicate id.")
    for key, page in pages.items():
        _check_section(page.setup, key, f"page {key}", check=False)
    for p in patterns:
        _check_pattern(p, pages)
    model = Patterns(pages=pages, patterns=patterns)
    empty = [key for key in pages if not model.on(key)]
    if empty:
        raise _fail(f"page {empty[0]}", "has no pattern; its page would be empty.")
    _check_order(model)
    return model
