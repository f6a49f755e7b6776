"""Read and validate ``data/fact-check.yml``: the claims of the three posts, each with
its verdict and the executed evidence that settles it.

``load_claims()`` returns the entries as dicts, or raises ``FactCheckError`` naming the
first bad entry and what to do about it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tools import sections
from tools.repo import CJK, DOCS, LANGS, ROOT

DATA = ROOT / "data" / "fact-check.yml"
VERDICTS = ("true", "false", "misleading", "unverifiable")
REQUIRED = (
    "id", "seed", "section", "quote", "quote_en", "verdict", "reason_zh", "reason_en", "evidence",
)
OPTIONAL = ("benchmark", "gpu", "see")
_ID = re.compile(r"^s\d{3}-\d{2}$")  # s<post number>-<claim number>
_TEXT_FIELDS = ("section", "quote", "quote_en", "reason_zh", "reason_en")


class FactCheckError(ValueError):
    """A bad entry in data/fact-check.yml; the message names the entry and the fix."""


def _fail(where: str, what: str) -> FactCheckError:
    return FactCheckError(f"data/fact-check.yml, entry {where}: {what}")


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
    if isinstance(verdict, bool):  # YAML reads a bare true/false as a boolean
        verdict = "true" if verdict else "false"
    if verdict not in VERDICTS:
        raise _fail(where, f"unknown verdict {verdict!r}; use one of {list(VERDICTS)}.")
    claim["verdict"] = verdict
    if not _ID.match(str(claim["id"])):
        raise _fail(where, "id must look like s000-01 (seed number, claim number).")
    claim["seed"] = str(claim["seed"])
    if not str(claim["id"]).startswith(f"s{claim['seed']}-"):
        raise _fail(where, f"id does not match seed {claim['seed']!r}.")
    for name in _TEXT_FIELDS:
        claim[name] = str(claim[name])
    if CJK.search(claim["quote_en"] + claim["reason_en"]):
        raise _fail(where, "quote_en / reason_en contain Chinese characters; translate them.")


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
            raise _fail(
                where, f"evidence section {section!r} is not in {path} (has {sorted(names)})."
            )


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
        if not (
            isinstance(see, list)
            and see
            and all(isinstance(s, str) and s.endswith(".md") for s in see)
        ):
            raise _fail(
                where, "see must be a page path or a list of page paths under docs/<lang>/ (….md)."
            )
        for page in see:
            for lang in LANGS:
                if not (docs / lang / page).is_file():
                    raise _fail(where, f"see page docs/{lang}/{page} does not exist.")
        claim["see"] = see
    if "gpu" in claim and not isinstance(claim["gpu"], bool):
        raise _fail(where, "gpu must be true or false.")


def check_entry(entry: object, index: int, root: Path = ROOT) -> dict:
    """The validated claim of entry number ``index`` (1-based), normalized."""
    if not isinstance(entry, dict):
        raise _fail(f"#{index}", f"expected a mapping, got {type(entry).__name__}.")
    where = f"{entry.get('id', f'#{index}')!s}"
    _check_fields(entry, where)
    claim = dict(entry)
    _check_identity(claim, where)
    _check_evidence(claim, where, root)
    _check_pages(claim, where, root)
    return claim


def load_claims(path: Path = DATA, root: Path = ROOT) -> list[dict]:
    """Read and validate the data file; raise FactCheckError naming the first bad entry."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise FactCheckError(f"data/fact-check.yml cannot be read: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        raise FactCheckError("data/fact-check.yml must have a top-level 'claims:' list.")
    claims = [check_entry(entry, i, root) for i, entry in enumerate(data["claims"], 1)]
    seen = Counter(c["id"] for c in claims)
    dupes = sorted(i for i, n in seen.items() if n > 1)
    if dupes:
        raise _fail(", ".join(dupes), "duplicate id.")
    return claims
