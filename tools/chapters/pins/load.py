"""Site claims that PyTorch's own tests pin: the data and its checks.

``data/upstream-tests.yml`` maps a site claim (a pin) to the PyTorch tests
that pin the same behaviour, at a stated commit of pytorch/pytorch. A page
places a pin with the marker ``<!-- pytorch-pins: ID [ID ...] -->``; the hook
``tools/chapters/pins/hook.py`` replaces it with the line that
``tools.chapters.pins.render.render(pins, ids, lang)`` makes.

``load()`` validates the data and fails naming the entry: an unknown field, a
page that does not exist, a file with no pinned commit, or a test that is not
in ``data/pytorch-test-names.txt`` (the names found at those commits).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tools.core import data as datafile
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT

DATA = ROOT / "data" / "upstream-tests.yml"
SCHEMA = "upstream-tests.schema.json"  # data/schemas/: the fields and their shapes
NAMES = ROOT / "data" / "pytorch-test-names.txt"
MARKER = re.compile(r"<!--\s*pytorch-pins:\s*(?P<ids>[-\w ]+?)\s*-->")
_ID = re.compile(r"^[a-z][-a-z0-9]*$")
_FIELDS = {"id", "page", "claim", "tests", "subject"}
_REQUIRED = {"id", "page", "claim", "tests"}


class PinError(ToolError, ValueError):
    """A bad entry in data/upstream-tests.yml or a bad marker on a page."""


@dataclass(frozen=True)
class Test:
    file: str
    cls: str
    name: str

    @classmethod
    def parse(cls, text: str) -> Test:
        parts = str(text).split("::")
        if len(parts) != 3 or not all(parts):
            raise PinError(f"test {text!r} must read <file>::<Class>::<test>")
        return cls(*parts)

    def __str__(self) -> str:
        return f"{self.file}::{self.cls}::{self.name}"


@dataclass(frozen=True)
class Pin:
    id: str
    page: str
    claim: str
    tests: tuple[Test, ...]
    subject: str | None = None


@dataclass(frozen=True)
class Pins:
    repo: str
    commits: dict[str, str]
    pins: dict[str, Pin]

    def url(self, test: Test) -> str:
        return f"https://github.com/{self.repo}/blob/{self.commits[test.file]}/{test.file}"


def known_tests(path: Path = NAMES) -> set[str]:
    """The test names found at the pinned commits (comments skipped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")}


def _pin(entry: object, index: int, commits: dict, names: set[str]) -> Pin:
    where = f"pin {entry['id']}"
    page = str(entry["page"])
    for lang in LANGS:
        if not (DOCS / lang / page).is_file():
            raise PinError(f"{where}: page docs/{lang}/{page} does not exist")
    parsed = []
    for text in entry["tests"]:
        test = Test.parse(text)
        if test.file not in commits:
            raise PinError(f"{where}: no commit for {test.file} under 'commits:'")
        if str(test) not in names:
            raise PinError(
                f"{where}: {test} is not in {NAMES.name}, the "
                "test names found at the pinned commit; read the "
                "file at that commit and add it, or fix the name"
            )
        parsed.append(test)
    subject = entry.get("subject")
    return Pin(
        str(entry["id"]), page, str(entry["claim"]), tuple(parsed), None if subject is None else str(subject)
    )


def load(path: Path = DATA, names_path: Path = NAMES) -> Pins:
    """Read and validate the data file; raise PinError naming the entry."""
    data = datafile.load(path, SCHEMA, entries="pins", error=PinError).data
    commits = data["commits"]
    names = known_tests(names_path)
    pins: dict[str, Pin] = {}
    for i, entry in enumerate(data.get("pins") or [], 1):
        pin = _pin(entry, i, commits, names)
        if pin.id in pins:
            raise PinError(f"pin {pin.id}: the id is used twice")
        pins[pin.id] = pin
    return Pins(str(data.get("repo", "pytorch/pytorch")), dict(commits), pins)


def markers(md: str) -> list[list[str]]:
    """The pin ids of each marker on a page, in order."""
    return [m["ids"].split() for m in MARKER.finditer(md)]
