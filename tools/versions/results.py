"""The torch-version results, ``data/torch-versions/<torch>.json``, as data.

Each file holds one torch release's run of every snippet (``tools.versions.run``):

- provenance: torch build string, Python, date, commit, machine;
- per snippet: the SHA-256 of its file when it ran (``hash``), its ``status``
  (``pass``, ``assert-failed``, ``error``, ``timeout``, ``skipped-cuda``), for a
  failure the line and message, and ``differs``: for every section whose output
  is not the record's, this release's output.

An entry whose ``hash`` is not the snippet's current hash is *stale*: it says
how an older version of the snippet behaved and is never shown as a pass.

Every entry carries a ``seal``, the SHA-256 of everything else in it, written by the
runner only: a result edited by hand (a failure turned into a pass, an output
changed) no longer matches its seal and is refused when the file is loaded.
Why a result differs from the pin is said by hand in ``differences.yml``
(``tools.versions.differences``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from tools.core import sections as markers
from tools.core.repo import ROOT, rel
from tools.snippets.source import all_snippets as snippet_paths
from tools.snippets.stamp import file_hash
from tools.versions.differences import Difference, Differences

DATA = ROOT / "data" / "torch-versions"
SCHEMA = 1
STATUSES = ("pass", "assert-failed", "error", "timeout", "skipped-cuda")
FAILED = ("assert-failed", "error", "timeout")


def pinned_torch() -> str:
    """The torch release requirements.lock pins (the one place it is written)."""
    pin = re.search(r"^torch==([^\s\\;]+)", (ROOT / "requirements.lock").read_text(encoding="utf-8"), re.M)
    if pin is None:
        raise ValueError("requirements.lock pins no torch (a line torch==X.Y.Z)")
    return pin[1]


REFERENCE = pinned_torch()  # the records are made on it


def sections(record_text: str, where: str = "record") -> dict[str, str]:
    """Named sections of a record, ``{name: output}`` (tools.core.sections' syntax)."""
    return markers.named(record_text, where)


def version_key(version: str) -> tuple[int, ...]:
    """``"2.10.0+cu128"`` -> ``(2, 10, 0)``, for sorting releases."""
    base = version.split("+", 1)[0]
    return tuple(int(p) for p in re.findall(r"\d+", base)[:3])


def base_version(version: str) -> str:
    return version.split("+", 1)[0]


def seal(entry: dict) -> str:
    """The SHA-256 of a result entry without its seal (the runner writes it)."""
    body = {k: v for k, v in entry.items() if k != "seal"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def sealed(entry: dict) -> dict:
    return {**entry, "seal": seal(entry)}


def broken_seals(data: dict) -> list[str]:
    """Snippets whose entry does not match its seal (edited by hand)."""
    return [name for name, entry in data["snippets"].items() if entry.get("seal") != seal(entry)]


def load(path: Path, verify: bool = True) -> dict:
    """A result file, checked against data/schemas/torch-versions.schema.json, and
    (``verify``) every entry against its seal: a DataError names the file and entry."""
    from tools.core import data as datafile

    data = datafile.load(path, "torch-versions.schema.json").data
    broken = broken_seals(data) if verify else []
    if broken:
        entry = data["snippets"][broken[0]]
        raise datafile.DataError(
            f"{rel(path)}, entry {broken[0]}: the result (status {entry.get('status')!r}) does not "
            f"match the seal the runner wrote, so it was edited by hand"
            + (f" ({len(broken) - 1} more entries too)" if len(broken) > 1 else "")
            + f"; a result is never trusted without a run: make test-versions TORCH={Path(path).stem}"
            " ARGS=--merge (it re-runs the entries whose seal is broken)"
        )
    return data


def load_all(folder: Path = DATA) -> dict[str, dict]:
    """{torch version: data}, oldest release first."""
    files = sorted(Path(folder).glob("*.json"), key=lambda p: version_key(p.stem))
    return {p.stem: load(p) for p in files}


def is_stale(entry: dict, current_hash: str) -> bool:
    return entry.get("hash") != current_hash


def classify(entry: dict) -> str:
    """pass / differs / fails / skipped, for counting."""
    if entry["status"] == "skipped-cuda":
        return "skipped"
    if entry["status"] in FAILED:
        return "fails"
    return "differs" if entry.get("differs") else "pass"


def summarize(data: dict, current: dict[str, str] | None = None) -> dict[str, int]:
    """Counts per kind (``classify``); with ``current`` (path -> hash), stale and missing too."""
    counts = {"pass": 0, "differs": 0, "fails": 0, "skipped": 0, "stale": 0}
    if current is not None:
        counts["missing"] = len(set(current) - set(data["snippets"]))
    for name, entry in data["snippets"].items():
        if current is not None and name not in current:
            continue  # a snippet since removed
        if current is not None and is_stale(entry, current.get(name, "")):
            counts["stale"] += 1
            continue
        counts[classify(entry)] += 1
    return counts


def missing_snippets(data: dict, current: dict[str, str]) -> list[str]:
    """Snippets (repository paths) with no entry in ``data`` yet: checked on the pin only."""
    return sorted(set(current) - set(data["snippets"]))


def stale_or_missing(path: Path) -> list[Path]:
    """Snippets whose entry in ``path`` is stale or absent."""
    if not path.exists():
        return snippet_paths()
    data = load(path, verify=False)
    entries, broken = data["snippets"], set(broken_seals(data))
    return [
        p
        for p in snippet_paths()
        if rel(p) not in entries or rel(p) in broken or is_stale(entries[rel(p)], file_hash(p))
    ]


# --------------------------------------------------------------------------- the matrix
@dataclass
class SectionResult:
    """What one release did with one section of a snippet."""

    kind: str  # same / differs / failed / not-reached / cuda / stale / missing
    output: str | None = None  # the release's output when kind is differs/failed
    line: int | None = None
    code: str = ""
    message: str = ""


@dataclass
class Matrix:
    """The result files, with the snippets' current hashes for staleness."""

    runs: dict[str, dict]  # version -> data, oldest first
    hashes: dict[str, str] = field(default_factory=dict)  # rel snippet path -> hash
    differences: Differences | None = None  # why results differ (differences.yml)

    @property
    def versions(self) -> list[str]:
        return list(self.runs)

    reference: str = REFERENCE  # the pinned release: its results are the records

    @staticmethod
    def section_lines(snippet: str) -> dict[str, tuple[int, int]]:
        return section_lines(snippet)

    def entry(self, version: str, snippet: str) -> dict | None:
        return self.runs[version]["snippets"].get(snippet)

    def stale(self, version: str, snippet: str) -> bool:
        entry = self.entry(version, snippet)
        return entry is not None and is_stale(entry, self.hashes.get(snippet, ""))

    def hidden(self, version: str, snippet: str) -> Difference | None:
        """The environment entry that keeps this result off the pages, if any."""
        return self.differences.environment(version, snippet) if self.differences else None

    def entry_shown(self, version: str, snippet: str) -> dict | None:
        """The entry as the pages see it: None where an environment entry hides it."""
        return None if self.hidden(version, snippet) else self.entry(version, snippet)

    def section(
        self, version: str, snippet: str, name: str, first_line: int, last_line: int
    ) -> SectionResult:
        """What the pages show: an environment result counts as not checked."""
        if self.hidden(version, snippet):
            return SectionResult("missing")
        return self.raw_section(version, snippet, name, first_line, last_line)

    def why(self, version: str, snippet: str, name: str) -> Difference | None:
        return self.differences.find(version, snippet, name) if self.differences else None

    def raw_section(
        self, version: str, snippet: str, name: str, first_line: int, last_line: int
    ) -> SectionResult:
        if version == REFERENCE:  # the records themselves: make test checks them
            return SectionResult("same")
        entry = self.entry(version, snippet)
        if entry is None:
            return SectionResult("missing")
        if self.stale(version, snippet):
            return SectionResult("stale")
        if entry["status"] == "skipped-cuda":
            return SectionResult("cuda")
        if name in entry.get("not_reached", []):
            return SectionResult("not-reached")
        failed_here = entry["status"] in FAILED and (
            entry.get("line") is None or first_line <= entry["line"] <= last_line
        )
        if failed_here:
            output = None if entry["status"] == "timeout" else entry.get("differs", {}).get(name)
            return SectionResult(
                "failed", output, entry.get("line"), entry.get("code", ""), entry.get("message", "")
            )
        if name in entry.get("differs", {}):
            return SectionResult("differs", entry["differs"][name])
        return SectionResult("same")


def load_matrix(folder: Path = DATA, differences: Path | None = None) -> Matrix:
    """Every result file in ``folder``, oldest release first, with the classes of
    ``differences`` (default: differences.yml beside them); a ValueError names a file
    that is not valid JSON, an entry whose seal is broken, or a bad class entry."""
    from tools.core.data import DataError
    from tools.versions import differences as why

    runs = {}
    for path in sorted(Path(folder).glob("*.json"), key=lambda p: version_key(p.stem)):
        try:
            runs[path.stem] = load(path)
        except DataError:
            raise
        except ValueError as err:
            raise ValueError(f"{rel(path)} is not valid JSON ({err}); re-run make test-versions") from None
    hashes = {rel(p): file_hash(p) for p in snippet_paths()}
    diffs = why.load(differences or Path(folder) / why.PATH.name)
    return Matrix(runs, hashes, diffs)


@functools.cache
def section_lines(snippet: str) -> dict[str, tuple[int, int]]:
    """Section name -> (first line, last line) in the snippet file ``snippet``
    (its path from the repository root); cached: clear it when snippets change."""
    path = ROOT / snippet
    out = {}
    if not path.exists():
        return out
    chunks = markers.split(path.read_text(encoding="utf-8"), snippet)
    for chunk in chunks:
        if chunk.name:
            out[chunk.name] = (chunk.first_line, chunk.last_line)
    return out
