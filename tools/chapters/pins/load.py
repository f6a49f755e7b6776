"""Site claims that PyTorch's own tests pin: the data and its checks.

``data/upstream-tests.yml`` maps a site claim (a pin) to the PyTorch tests
that pin the same behaviour, at a stated commit of pytorch/pytorch. A page
places a pin with the marker ``<!-- pytorch-pins: ID [ID ...] -->`` under the heading
whose statement the tests pin; the page's Sources list (``tools/build/machinery.py``,
written before the build) links those tests (``tools.chapters.pins.render.tests_html``).

``load()`` validates the data and fails naming the file, line and entry, and
what to do: an unknown field, a page that does not exist, a file with no pinned
commit, a test that is not in ``data/pytorch-test-names.txt`` (the names found
at those commits), one test cited at two lines, or evidence that does not hold
(``evidence:`` names the snippet section that asserts the claim; it must exist,
be embedded on the pin's page in every language and contain an assert), so a
pin cannot outlive its evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tools.core import data as datafile
from tools.core import sections
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT
from tools.pages import parse as pages

DATA = ROOT / "data" / "upstream-tests.yml"
SCHEMA = "upstream-tests.schema.json"  # data/schemas/: the fields and their shapes
NAMES = ROOT / "data" / "pytorch-test-names.txt"
DEFS = ROOT / "data" / "upstream-defs.yml"  # the line of each cited def, as read at its commit
MARKER = re.compile(r"<!--\s*pytorch-pins:\s*(?P<ids>[-\w ]+?)\s*-->")


class PinError(ToolError, ValueError):
    """A bad entry in data/upstream-tests.yml or a bad marker on a page."""


@dataclass(frozen=True)
class Test:
    file: str
    cls: str
    name: str
    line: int | None = None  # the line of its ``def`` at the file's pinned commit

    @classmethod
    def parse(cls, text: str, line: int | None = None) -> Test:
        parts = str(text).split("::")
        if len(parts) != 3 or not all(parts):
            raise PinError(f"test {text!r} must read <file>::<Class>::<test>")
        return cls(*parts, line)

    def __str__(self) -> str:
        return f"{self.file}::{self.cls}::{self.name}"


@dataclass(frozen=True)
class Pin:
    id: str
    page: str
    claim: str
    tests: tuple[Test, ...]
    evidence: str
    subject: str | None = None
    only: dict[str, str] | None = None  # per language: the part of the claim the tests pin


@dataclass(frozen=True)
class Pins:
    repo: str
    commits: dict[str, str]
    pins: dict[str, Pin]

    def url(self, test: Test) -> str:
        """The test's file at its pinned commit, at the test's line when the data has it."""
        anchor = f"#L{test.line}" if test.line else ""
        return f"https://github.com/{self.repo}/blob/{self.commits[test.file]}/{test.file}{anchor}"


def known_tests(path: Path = NAMES) -> set[str]:
    """The test names found at the pinned commits (comments skipped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")}


def known_defs(path: Path = DEFS) -> dict[str, dict[str, int]]:
    """``<file>@<commit>`` -> ``Class::test`` -> the line of its def, as read there."""
    data = datafile.read_yaml(path).data or {}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise PinError(
            f"data/{DEFS.name}: expected '<file>@<commit>:' keys, each with 'Class::test: line' lines"
        )
    return {str(k): {str(n): int(v) for n, v in tests.items()} for k, tests in data.items()}


def _check_line(test: Test, where: str, commits: dict, defs: dict) -> None:
    """The pin's line is the line of the test's def in the digest of the pinned file."""
    key = f"{test.file}@{commits[test.file]}"
    read = defs.get(key, {}).get(f"{test.cls}::{test.name}")
    at = f"{test.file} at {commits[test.file][:7]}"
    if read is None:
        raise PinError(
            f"{where}: {test.cls}::{test.name} has no line in data/{DEFS.name} for {at}; read the "
            f"file at that commit, find its def, and add '{test.cls}::{test.name}: <line>' under "
            f"'{key}' there"
        )
    if test.line != read:
        raise PinError(
            f"{where}: {test} is at line {test.line} here, but its def is at line {read} of "
            f"{at} (data/{DEFS.name}, read at that commit); use line {read}, or re-read the file "
            "and correct the digest if that reading was wrong"
        )


def _tests(
    entry: dict, where: str, commits: dict, names: set[str], lines: dict, defs: dict
) -> tuple[Test, ...]:
    parsed = []
    for item in entry["tests"]:
        try:
            test = Test.parse(item["test"], item.get("line"))
        except PinError as err:
            raise PinError(f"{where}: {err}; write it as in {NAMES.name}") from None
        if test.file not in commits:
            raise PinError(
                f"{where}: no commit for {test.file} under 'commits:'; add the commit you read it at"
            )
        if str(test) not in names:
            raise PinError(
                f"{where}: {test} is not in {NAMES.name}, the test names found at the "
                "pinned commit; read the file at that commit and add it, or fix the name"
            )
        _check_line(test, where, commits, defs)
        seen = lines.setdefault(str(test), test.line)
        if seen != test.line:
            raise PinError(
                f"{where}: {test} is at line {test.line} here and {seen} in another pin; "
                f"read the line of its def at {commits[test.file][:7]} and use it in both"
            )
        parsed.append(test)
    return tuple(parsed)


def _check_evidence(entry: dict, where: str, root: Path = ROOT) -> None:
    """The snippet section named by ``evidence:`` exists, is on the pin's page in every
    language, and asserts something."""
    evidence = str(entry["evidence"])
    path, section = sections.split_evidence(evidence)
    file = root / path
    if not file.is_file():
        raise PinError(
            f"{where}: evidence file {path} does not exist; name the snippet that asserts the claim"
        )
    names = sections.names(file.read_text(encoding="utf-8"))
    if section not in names:
        raise PinError(
            f"{where}: evidence section {section!r} is not in {path} (it has {names}); "
            "name the section that asserts the claim, or restore it"
        )
    target = Path(path).relative_to("snippets").as_posix()
    for lang in LANGS:
        md = (root / DOCS.relative_to(ROOT) / lang / entry["page"]).read_text(encoding="utf-8")
        embedded = {(inc.file, inc.section) for inc in pages.includes(md)}
        if (target, section) not in embedded and (target, None) not in embedded:
            raise PinError(
                f"{where}: docs/{lang}/{entry['page']} does not embed {target}:{section}; "
                "name a section the page shows, or embed it there"
            )
    if not sections.assert_sources(file, section, raises=True):
        raise PinError(
            f"{where}: {evidence} asserts nothing (no assert, no raise AssertionError); "
            "assert the claim there, or name the section that does"
        )


def _pin(
    entry: dict, where: str, commits: dict, names: set[str], lines: dict, defs: dict, root: Path = ROOT
) -> Pin:
    page = str(entry["page"])
    for lang in LANGS:
        if not (root / DOCS.relative_to(ROOT) / lang / page).is_file():
            raise PinError(f"{where}: page docs/{lang}/{page} does not exist; fix 'page:'")
    tests = _tests(entry, where, commits, names, lines, defs)
    _check_evidence(entry, where, root)
    subject = entry.get("subject")
    _refuse_script(where, [subject or "", *(entry.get("only") or {}).values()])
    return Pin(
        str(entry["id"]),
        page,
        str(entry["claim"]),
        tests,
        str(entry["evidence"]),
        None if subject is None else str(subject),
        entry.get("only"),
    )


def _refuse_script(where: str, texts: list[str]) -> None:
    """The words a page shows (subject, only) hold no script or link a browser could run."""
    from tools.core import escape

    for text in texts:
        found = escape.executable(str(text))
        if found:
            raise PinError(f"{where}: holds {found[0][1]}. {escape.EXECUTABLE_FIX}")


def load(path: Path = DATA, names_path: Path = NAMES, root: Path = ROOT, defs_path: Path = DEFS) -> Pins:
    """Read and validate the data file; raise PinError naming file, line and entry."""
    doc = datafile.load(path, SCHEMA, entries="pins", error=PinError)
    data = doc.data
    commits = data["commits"]
    names = known_tests(names_path)
    defs = known_defs(defs_path)
    pins: dict[str, Pin] = {}
    lines: dict[str, int | None] = {}
    for i, entry in enumerate(data.get("pins") or []):
        where = doc.place(("pins", i), "pins")
        if entry["id"] in pins:
            raise PinError(f"{where}: the id is used twice; give this pin an id of its own")
        pins[entry["id"]] = _pin(entry, where, commits, names, lines, defs, root)
    return Pins(str(data.get("repo", "pytorch/pytorch")), dict(commits), pins)


def markers(md: str) -> list[list[str]]:
    """The pin ids of each marker on a page, in order."""
    return [m["ids"].split() for m in MARKER.finditer(md)]
