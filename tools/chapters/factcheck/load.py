"""Read and validate ``data/fact-check.yml``: the claims of the three posts, each with
its verdict and the executed evidence that settles it.

An entry names its evidence (``snippets/x/y.py:section``) and the assert there that
settles the claim (``assert:``, a distinctive part of the assert statement, compared
without whitespace). The link lives here, not in the code readers see: if that assert
disappears or changes, loading fails naming the entry.

``load_claims()`` returns the entries as dicts, or raises ``FactCheckError`` naming the
file, line and entry, and what to do about it. Booleans are YAML 1.2's (``true`` /
``false`` only): ``no``, ``off``, ``yes`` and ``on`` stay strings and fail validation
instead of turning silently into booleans.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from functools import cache
from pathlib import Path

import yaml

from tools.core import sections
from tools.core.errors import ToolError
from tools.core.repo import CJK, DOCS, LANGS, ROOT, rel

DATA = ROOT / "data" / "fact-check.yml"
VERDICTS = ("true", "false", "misleading", "unverifiable")
REQUIRED = (
    "id",
    "seed",
    "section",
    "quote",
    "quote_en",
    "verdict",
    "reason_zh",
    "reason_en",
    "evidence",
    "assert",
)
OPTIONAL = ("benchmark", "gpu", "see")
_ID = re.compile(r"^s\d{3}-\d{2}$")  # s<post number>-<claim number>
_TEXT_FIELDS = ("section", "quote", "quote_en", "reason_zh", "reason_en")


class FactCheckError(ToolError, ValueError):
    """A bad entry in data/fact-check.yml; the message names the entry and the fix."""


def _fail(where: str, what: str) -> FactCheckError:
    return FactCheckError(f"{where}: {what}")


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml: ~10x faster
    """SafeLoader with YAML 1.2 booleans: only true/false (any case) are booleans."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in _Loader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def split_evidence(evidence: str) -> tuple[str, str | None]:
    """``'snippets/x/y.py:sec'`` -> ``('snippets/x/y.py', 'sec')``."""
    path, _, section = evidence.partition(":")
    return path, section or None


def _check_fields(entry: dict, where: str) -> None:
    missing = [f for f in REQUIRED if entry.get(f) in (None, "")]
    if missing:
        raise _fail(where, f"missing field(s) {missing}; every entry needs {list(REQUIRED)}.")
    unknown = sorted(set(entry) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise _fail(where, f"unknown field(s) {unknown}; allowed: {list(REQUIRED + OPTIONAL)}.")


def _check_identity(claim: dict, where: str) -> None:
    verdict = claim["verdict"]
    if isinstance(verdict, bool):  # a bare true/false is a YAML boolean
        verdict = "true" if verdict else "false"
    if verdict not in VERDICTS:
        raise _fail(where, f"unknown verdict {verdict!r}; use one of {list(VERDICTS)}.")
    claim["verdict"] = verdict
    if not _ID.match(str(claim["id"])):
        raise _fail(where, "id must look like s000-01 (seed number, claim number).")
    claim["seed"] = str(claim["seed"])
    if not str(claim["id"]).startswith(f"s{claim['seed']}-"):
        raise _fail(where, f"id does not match seed {claim['seed']!r}.")
    for name in (*_TEXT_FIELDS, "assert"):
        claim[name] = str(claim[name])
    if CJK.search(claim["quote_en"] + claim["reason_en"]):
        raise _fail(where, "quote_en / reason_en contain Chinese characters; translate them.")


@cache
def _asserts(path: Path, stamp: tuple[int, int]) -> tuple[list[tuple[int, str]], dict[str, range]]:
    """(line, source lines) of each assert in ``path``, and each section's line range.

    Cached by (mtime, size): the build checks ~70 entries against a dozen files.
    """
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    found = [
        (node.lineno, "".join(lines[node.lineno - 1 : node.end_lineno]))
        for node in ast.walk(ast.parse(text, filename=str(path)))
        if isinstance(node, ast.Assert)
    ]
    ranges = {
        c.name: range(c.first_line, c.first_line + c.code.count("\n"))
        for c in sections.split(text, rel(path))
        if c.name is not None
    }
    return found, ranges


def _assert_sources(file: Path, section: str | None) -> list[str]:
    """Source of each assert statement in ``file`` (or in its ``section``)."""
    stat = file.stat()
    found, ranges = _asserts(file, (stat.st_mtime_ns, stat.st_size))
    lines = ranges[section] if section is not None else None
    return [code for line, code in found if lines is None or line in lines]


def _squeeze(code: str) -> str:
    return re.sub(r"\s+", "", code)


def _check_assert(claim: dict, where: str, file: Path, section: str | None) -> None:
    wanted = str(claim["assert"])
    place = rel(file) + (f":{section}" if section else "")
    found = [a for a in _assert_sources(file, section) if _squeeze(wanted) in _squeeze(a)]
    if not found:
        raise _fail(
            where,
            f"no assert in {place} contains {wanted!r}. The assert that settles this claim "
            "is gone or has changed: restore it, or set 'assert:' to a distinctive part "
            "of the assert that settles it now.",
        )
    if len(found) > 1:
        raise _fail(
            where,
            f"{len(found)} asserts in {place} contain {wanted!r}: make 'assert:' "
            f"distinctive enough to name one of {found}.",
        )


def _check_evidence(claim: dict, where: str, root: Path) -> None:
    path, section = split_evidence(str(claim["evidence"]))
    if not (path.startswith(("snippets/", "benchmarks/")) and path.endswith(".py")):
        raise _fail(where, f"evidence {path!r} must be a snippets/...py or benchmarks/...py file.")
    file = root / path
    if not file.is_file():
        raise _fail(where, f"evidence file {path!r} does not exist.")
    if section is not None:
        names = set(sections.names(file.read_text(encoding="utf-8")))
        if section not in names:
            raise _fail(where, f"evidence section {section!r} is not in {path} (has {sorted(names)}).")
    _check_assert(claim, where, file, section)


def _check_pages(claim: dict, where: str, root: Path) -> None:
    docs = root / DOCS.relative_to(ROOT)
    if "benchmark" in claim:
        page = str(claim["benchmark"])
        for lang in LANGS:
            if not (docs / lang / page).is_file():
                raise _fail(where, f"benchmark page docs/{lang}/{page} does not exist.")
    if "see" in claim:
        see = claim["see"]
        if isinstance(see, str):
            see = [see]
        if not (isinstance(see, list) and see and all(isinstance(s, str) and s.endswith(".md") for s in see)):
            raise _fail(where, "see must be a page path or a list of page paths under docs/<lang>/ (….md).")
        for page in see:
            for lang in LANGS:
                if not (docs / lang / page).is_file():
                    raise _fail(where, f"see page docs/{lang}/{page} does not exist.")
        claim["see"] = see
    if "gpu" in claim and not isinstance(claim["gpu"], bool):
        raise _fail(where, "gpu must be true or false.")


def check_entry(entry: object, place: str, root: Path = ROOT) -> dict:
    """The validated claim, normalized; ``place`` (file:line) names it in errors."""
    if not isinstance(entry, dict):
        raise _fail(place, f"expected a mapping, got {type(entry).__name__}.")
    where = f"{place}, entry {entry['id']}" if "id" in entry else place
    _check_fields(entry, where)
    claim = dict(entry)
    _check_identity(claim, where)
    _check_evidence(claim, where, root)
    _check_pages(claim, where, root)
    return claim


def _read(path: Path) -> tuple[object, list[int]]:
    """The data, and the 1-based line of each item of its ``claims`` list."""
    loader = _Loader(Path(path).read_text(encoding="utf-8"))
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    lines: list[int] = []
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "claims" and isinstance(value, yaml.SequenceNode):
                lines = [item.start_mark.line + 1 for item in value.value]
    return data, lines


def load_claims(path: Path = DATA, root: Path = ROOT) -> list[dict]:
    """Read and validate the data file; raise FactCheckError naming the first bad entry."""
    name = rel(path)
    try:
        data, lines = _read(path)
    except (OSError, yaml.YAMLError) as err:
        raise FactCheckError(f"{name} cannot be read: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        raise FactCheckError(f"{name} must have a top-level 'claims:' list.")
    claims = [check_entry(entry, f"{name}:{line}", root) for entry, line in zip(data["claims"], lines)]
    seen = Counter(c["id"] for c in claims)
    dupes = sorted(i for i, n in seen.items() if n > 1)
    if dupes:
        raise _fail(name, f"duplicate id {', '.join(dupes)}.")
    return claims
