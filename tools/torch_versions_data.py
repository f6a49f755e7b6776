"""The torch-version results, ``data/torch-versions/<torch>.json``, as data.

Each file holds one torch release's run of every snippet (``tools.torch_versions_run``):

- provenance: torch build string, Python, date, commit, machine;
- per snippet: the SHA-256 of its file when it ran (``hash``), its ``status``
  (``pass``, ``assert-failed``, ``error``, ``timeout``, ``skipped-cuda``), for a
  failure the line and message, and ``differs``: for every section whose output
  is not the record's, this release's output.

An entry whose ``hash`` is not the snippet's current hash is *stale*: it says
how an older version of the snippet behaved and is never shown as a pass.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from tools import sections as markers
from tools.repo import ROOT, SNIPPETS, rel

DATA = ROOT / "data" / "torch-versions"
SCHEMA = 1
STATUSES = ("pass", "assert-failed", "error", "timeout", "skipped-cuda")
FAILED = ("assert-failed", "error", "timeout")


def pinned_torch() -> str:
    """The torch release requirements.lock pins (the one place it is written)."""
    pin = re.search(r"^torch==(\S+)$", (ROOT / "requirements.lock").read_text(encoding="utf-8"), re.M)
    if pin is None:
        raise ValueError("requirements.lock pins no torch (a line torch==X.Y.Z)")
    return pin[1]


REFERENCE = pinned_torch()  # the records are made on it


def file_hash(path: Path) -> str:
    """SHA-256 (hex) of a snippet file's bytes: what staleness is computed from."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def sections(record_text: str, where: str = "record") -> dict[str, str]:
    """Named sections of a record, ``{name: output}`` (tools.sections' syntax)."""
    return markers.named(record_text, where)


def version_key(version: str) -> tuple[int, ...]:
    """``"2.10.0+cu128"`` -> ``(2, 10, 0)``, for sorting releases."""
    base = version.split("+", 1)[0]
    return tuple(int(p) for p in re.findall(r"\d+", base)[:3])


def base_version(version: str) -> str:
    return version.split("+", 1)[0]


def snippet_paths() -> list[Path]:
    return sorted(p for p in SNIPPETS.rglob("*.py") if p.name != "__init__.py")


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


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


def stale_or_missing(path: Path) -> list[Path]:
    """Snippets whose entry in ``path`` is stale or absent."""
    if not path.exists():
        return snippet_paths()
    entries = load(path)["snippets"]
    return [p for p in snippet_paths() if rel(p) not in entries or is_stale(entries[rel(p)], file_hash(p))]
