"""Why a release's result differs from the pin: ``data/torch-versions/differences.yml``.

The result files are machine-written (``tools.versions.run``); this file is kept by
hand, keyed by snippet block (``snippets/<path>.py:<section>``) and release, so a
re-run of the matrix keeps it. Each entry has a class:

- ``behaviour``: PyTorch does something else (a sentence per language, and the first
  release that behaves as the page says);
- ``wording``: the same behaviour, another message or repr;
- ``unavailable``: the API does not exist before a release;
- ``environment``: our venv lacked something. Never published (the page treats the
  result as not checked) and always a test failure, until the release is re-run.

``problems`` lists every block that differs or fails with no entry (the build refuses
these too), every entry that covers a block that no longer differs, and every
environment result.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tools.core import data as datafile
from tools.core.errors import ToolError
from tools.core.repo import ROOT, rel

PATH = ROOT / "data" / "torch-versions" / "differences.yml"
SCHEMA = "torch-versions-differences.schema.json"
CLASSES = ("behaviour", "wording", "unavailable", "environment")
DIFFERENT = ("differs", "failed")  # the section kinds (results.SectionResult) that need a class
RERUN = "make test-versions TORCH={v} ARGS=--merge"


class DifferenceError(ToolError, ValueError):
    """A bad entry in data/torch-versions/differences.yml, or a difference it lacks."""


@dataclass(frozen=True)
class Difference:
    id: str
    cls: str
    releases: tuple[str, ...]
    blocks: tuple[tuple[str, str], ...]  # (snippet path from the root, section)
    text: dict[str, str] | None = None
    since: str | None = None
    api: str | None = None
    missing: str | None = None
    place: str = ""  # file:line, for messages
    until: str | None = None  # a change after the pin: the last release as the page shows

    def covers(self, release: str, snippet: str, section: str) -> bool:
        return release in self.releases and (snippet, section) in self.blocks


@dataclass
class Differences:
    entries: list[Difference]
    path: Path = PATH

    def find(self, release: str, snippet: str, section: str) -> Difference | None:
        return next((d for d in self.entries if d.covers(release, snippet, section)), None)

    def environment(self, release: str, snippet: str) -> Difference | None:
        """The environment entry that hides ``snippet``'s result on ``release``."""
        for d in self.entries:
            if d.cls == "environment" and release in d.releases and any(s == snippet for s, _ in d.blocks):
                return d
        return None


def load(path: Path = PATH) -> Differences:
    """The entries, checked against their schema; a DifferenceError names file, line, entry."""
    if not Path(path).exists():
        return Differences([], Path(path))
    doc = datafile.load(path, SCHEMA, entries="differences", error=DifferenceError)
    entries, seen = [], set()
    for i, raw in enumerate(doc.data["differences"]):
        place = doc.place(("differences", i), "differences")
        if raw["id"] in seen:
            raise DifferenceError(f"{place}: the id {raw['id']!r} is used twice.")
        seen.add(raw["id"])
        blocks = tuple(tuple(b.rsplit(":", 1)) for b in raw["blocks"])
        entries.append(
            Difference(
                raw["id"],
                raw["class"],
                tuple(raw["releases"]),
                blocks,
                raw.get("text"),
                raw.get("since"),
                raw.get("api"),
                raw.get("missing"),
                place,
                raw.get("until"),
            )
        )
    return Differences(entries, Path(path))


# --------------------------------------------------------------------------- checks
def observed(matrix) -> dict[tuple[str, str, str], str]:
    """(release, snippet, section) -> "differs" / "failed", for every current result
    (not stale) of every release but the pin; environment results included."""
    out = {}
    for version in matrix.versions:
        if version == matrix.reference:
            continue
        for snippet in matrix.hashes:
            entry = matrix.entry(version, snippet)
            if entry is None or matrix.stale(version, snippet):
                continue
            for name, lines in matrix.section_lines(snippet).items():
                kind = matrix.raw_section(version, snippet, name, *lines).kind
                if kind in DIFFERENT:
                    out[(version, snippet, name)] = kind
    return out


def unclassified(matrix, diffs: Differences) -> list[str]:
    """A line per block that differs or fails on a release with no entry for it."""
    out = []
    for (version, snippet, name), kind in sorted(observed(matrix).items()):
        if diffs.find(version, snippet, name) is None:
            what = "fails" if kind == "failed" else "prints another output"
            out.append(
                f"{snippet}:{name} {what} on torch {version} and {rel(diffs.path)} gives no class: "
                f"compare the output with the record (the note under the block), then add an entry "
                f"(class behaviour, wording, unavailable or environment) listing {version}, "
                f"or fix the snippet and run {RERUN.format(v=version)}"
            )
    return out


def mismatches(matrix, diffs: Differences) -> list[str]:
    """Entries that name a release without results, a section that does not exist, or
    a block that no longer differs there."""
    out, seen = [], observed(matrix)
    for d in diffs.entries:
        for version in d.releases:
            if version not in matrix.runs:
                out.append(f"{d.place}: torch {version} has no result file in {rel(diffs.path.parent)}")
                continue
            for snippet, name in d.blocks:
                if name not in matrix.section_lines(snippet):
                    out.append(f"{d.place}: {snippet} has no section {name!r}")
                    continue
                fresh = matrix.entry(version, snippet) is not None and not matrix.stale(version, snippet)
                if fresh and (version, snippet, name) not in seen:
                    out.append(
                        f"{d.place}: {snippet}:{name} no longer differs on torch {version}: "
                        "remove it (or the release) from the entry"
                    )
    return out


def environment(diffs: Differences) -> list[str]:
    """A line per environment entry: a result our venv spoiled, to be re-run."""
    out = []
    for d in diffs.entries:
        if d.cls != "environment":
            continue
        files = " ".join(sorted({s for s, _ in d.blocks}))
        for version in d.releases:
            out.append(
                f"{d.place}: torch {version}'s result ran in a venv that lacked {d.missing}, "
                "so it is not published: every venv gets requirements.lock (noxfile.py); "
                f'run make test-versions TORCH={version} ARGS="--merge {files}", then remove the entry'
            )
    return out


def problems(matrix, diffs: Differences) -> list[str]:
    """Everything the tests refuse: unclassified differences, entries that do not match
    the results, environment results."""
    return unclassified(matrix, diffs) + mismatches(matrix, diffs) + environment(diffs)


# --------------------------------------------------------------------------- words
def short(version: str) -> str:
    """``"2.10.0"`` -> ``"2.10"``."""
    return ".".join(version.split(".")[:2])


def runs(releases, checked: list[str]) -> list[str]:
    """The releases as ranges of consecutive checked releases: ``["2.4–2.10", "2.14–2.15"]``."""
    order = [v for v in checked if v in set(releases)]
    groups: list[list[str]] = []
    for v in order:
        if groups and checked.index(v) == checked.index(groups[-1][-1]) + 1:
            groups[-1].append(v)
        else:
            groups.append([v])
    return [short(g[0]) if len(g) == 1 else f"{short(g[0])}–{short(g[-1])}" for g in groups]


def sentence(d: Difference, checked: list[str], lang: str, catalogue: str = "versions") -> str:
    """What the reader is told about ``d``, in Markdown (code spans as backticks), with
    the templates of ``UI[catalogue]`` (the version notes', or the changelog's)."""
    from tools.core.i18n import UI

    t = UI[catalogue][lang]
    versions = UI["versions"][lang]["and"].join(runs(d.releases, checked))
    if d.cls == "unavailable":
        return t["unavailable"].format(versions=versions, api=d.api, since=short(d.since or ""))
    text = (d.text or {}).get(lang, "").strip().rstrip("。" if lang == "zh" else ".")
    if d.cls == "behaviour" and d.until:
        return t["behaviour_until"].format(versions=versions, text=text, until=short(d.until))
    return t[d.cls].format(versions=versions, text=text, since=short(d.since or ""))
