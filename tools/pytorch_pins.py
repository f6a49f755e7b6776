"""Site claims that PyTorch's own tests pin: data, checks and the rendered line.

``data/upstream-tests.yml`` maps a site claim (a pin) to the PyTorch tests
that pin the same behaviour, at a stated commit of pytorch/pytorch. A page
places a pin with the marker ``<!-- pytorch-pins: ID [ID ...] -->``; the hook
``tools/pytorch_pins_hook.py`` replaces it with ``render(ids, lang)``.

``load()`` validates the data and fails naming the entry: an unknown field, a
page that does not exist, a file with no pinned commit, or a test that is not
in ``data/pytorch-test-names.txt`` (the names found at those commits).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from tools.repo import DOCS, LANGS, ROOT

DATA = ROOT / "data" / "upstream-tests.yml"
NAMES = ROOT / "data" / "pytorch-test-names.txt"
MARKER = re.compile(r"<!--\s*pytorch-pins:\s*(?P<ids>[-\w ]+?)\s*-->")
_ID = re.compile(r"^[a-z][-a-z0-9]*$")
_FIELDS = {"id", "page", "claim", "tests", "subject"}
_REQUIRED = {"id", "page", "claim", "tests"}

LABELS = {
    "zh": {"one": "PyTorch 自己的测试也规定了这一点：",
           "many": "PyTorch 自己的测试也规定了这些行为{at}：",
           "at": "（{file}，提交 {commit}）", "sep": "、", "group": "；", "colon": "："},
    "en": {"one": "PyTorch pins this too: ",
           "many": "PyTorch pins these too{at}: ",
           "at": " ({file} at {commit})", "sep": ", ", "group": "; ", "colon": ": "},
}


class PinError(ValueError):
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
        return (f"https://github.com/{self.repo}/blob/"
                f"{self.commits[test.file]}/{test.file}")


def known_tests(path: Path = NAMES) -> set[str]:
    """The test names found at the pinned commits (comments skipped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {ln.strip() for ln in lines
            if ln.strip() and not ln.lstrip().startswith("#")}


def _pin(entry: object, index: int, commits: dict, names: set[str]) -> Pin:
    if not isinstance(entry, dict):
        raise PinError(f"pin #{index}: expected a mapping")
    where = f"pin {entry.get('id', f'#{index}')!s}"
    missing = sorted(_REQUIRED - set(entry))
    unknown = sorted(set(entry) - _FIELDS)
    if missing or unknown:
        raise PinError(f"{where}: missing {missing}, unknown {unknown}; "
                       f"fields are {sorted(_FIELDS)}")
    if not _ID.match(str(entry["id"])):
        raise PinError(f"{where}: id must be lowercase words joined by -")
    page = str(entry["page"])
    for lang in LANGS:
        if not (DOCS / lang / page).is_file():
            raise PinError(f"{where}: page docs/{lang}/{page} does not exist")
    tests = entry["tests"]
    if not isinstance(tests, list) or not tests:
        raise PinError(f"{where}: tests must be a non-empty list")
    parsed = []
    for text in tests:
        test = Test.parse(text)
        if test.file not in commits:
            raise PinError(f"{where}: no commit for {test.file} under "
                           "'commits:'")
        if str(test) not in names:
            raise PinError(f"{where}: {test} is not in {NAMES.name}, the "
                           "test names found at the pinned commit; read the "
                           "file at that commit and add it, or fix the name")
        parsed.append(test)
    subject = entry.get("subject")
    return Pin(str(entry["id"]), page, str(entry["claim"]), tuple(parsed),
               None if subject is None else str(subject))


def load(path: Path = DATA, names_path: Path = NAMES) -> Pins:
    """Read and validate the data file; raise PinError naming the entry."""
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~10x faster
        data = yaml.load(Path(path).read_text(encoding="utf-8"), Loader=loader)
    except (OSError, yaml.YAMLError) as err:
        raise PinError(f"{path}: cannot be read: {err}") from None
    if not isinstance(data, dict):
        raise PinError(f"{path}: expected repo, commits and pins")
    commits = data.get("commits")
    if not isinstance(commits, dict) or not all(
        re.fullmatch(r"[0-9a-f]{40}", str(c)) for c in commits.values()
    ):
        raise PinError(f"{path}: commits must map files to 40-hex commits")
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


def _at(pins: Pins, file: str, lang: str) -> str:
    return LABELS[lang]["at"].format(file=html.escape(file),
                                     commit=pins.commits[file][:7])


def _links(pins: Pins, tests: tuple[Test, ...], lang: str,
           with_file: bool = True) -> str:
    lab = LABELS[lang]
    groups = []
    for file in dict.fromkeys(t.file for t in tests):
        links = [
            f'<a href="{html.escape(pins.url(t))}" '
            f'title="{html.escape(t.cls)}.{html.escape(t.name)}">'
            f"<code>{html.escape(t.name)}</code></a>"
            for t in tests if t.file == file
        ]
        at = _at(pins, file, lang) if with_file else ""
        groups.append(lab["sep"].join(links) + at)
    return lab["group"].join(groups)


def _subject(text: str) -> str:
    """``"`detach()`"`` -> ``<code>detach()</code>``; plain text escaped."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def render(pins: Pins, ids: list[str], lang: str) -> str:
    """The HTML line that replaces a marker naming ``ids``."""
    if lang not in LABELS:
        raise PinError(f"lang must be one of {list(LABELS)}, got {lang!r}")
    unknown = [i for i in ids if i not in pins.pins]
    if unknown:
        raise PinError(f"unknown pin id(s) {unknown}; see {DATA.name}")
    lab = LABELS[lang]
    chosen = [pins.pins[i] for i in ids]
    if len(chosen) == 1:
        body = lab["one"] + _links(pins, chosen[0].tests, lang)
    else:
        files = {t.file for pin in chosen for t in pin.tests}
        one_file = len(files) == 1
        at = _at(pins, files.pop(), lang) if one_file else ""
        parts = []
        for pin in chosen:
            label = _subject(pin.subject or pin.id)
            links = _links(pins, pin.tests, lang, with_file=not one_file)
            parts.append(label + lab["colon"] + links)
        body = lab["many"].format(at=at) + "".join("<br>" + p for p in parts)
    return f'<p class="pytorch-pins"><small>{body}</small></p>'
