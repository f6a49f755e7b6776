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

import re
from collections import Counter
from pathlib import Path

from tools.core import data as datafile
from tools.core import sections
from tools.core.errors import ToolError
from tools.core.repo import DOCS, LANGS, ROOT, rel

DATA = ROOT / "data" / "fact-check.yml"
SCHEMA = "fact-check.schema.json"  # data/schemas/: the fields and their shapes
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


def _check_identity(claim: dict, where: str) -> None:
    verdict = claim["verdict"]
    if isinstance(verdict, bool):  # a bare true/false is a YAML boolean
        verdict = "true" if verdict else "false"
    claim["verdict"] = verdict
    if not str(claim["id"]).startswith(f"s{claim['seed']}-"):
        raise _fail(where, f"id does not match seed {claim['seed']!r}.")


def _squeeze(code: str) -> str:
    return re.sub(r"\s+", "", code)


def _check_assert(claim: dict, where: str, file: Path, section: str | None) -> None:
    wanted = str(claim["assert"])
    place = rel(file) + (f":{section}" if section else "")
    found = [
        (a, b)
        for a, b in sections.assert_sources(file, section, with_branch=True)
        if _squeeze(wanted) in _squeeze(a)
    ]
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
            f"distinctive enough to name one of {[a for a, _ in found]}.",
        )
    branch = found[0][1]
    if branch is not None:
        raise _fail(
            where,
            f"the assert in {place} that settles this claim ({wanted!r}) sits inside the "
            f"if/while/except at {rel(file)}:{branch}, so a run may skip it (on a CPU "
            "machine, say) and the claim would count as checked by code that never ran. "
            "Move the assert out of the branch, or settle the claim with an assert that "
            "always runs.",
        )


def _check_evidence(claim: dict, where: str, root: Path) -> None:
    path, section = sections.split_evidence(str(claim["evidence"]))
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
        for page in see:
            for lang in LANGS:
                if not (docs / lang / page).is_file():
                    raise _fail(where, f"see page docs/{lang}/{page} does not exist.")
        claim["see"] = see


# A reason opens with the verdict it argues for, in its own language (the words of the
# verdict badge): "【误导】在 GPU 上……", "[misleading] On a GPU ...". The lead is not
# shown (the badge is); it binds the reasons to the verdict, so that a verdict changed
# without its reasons is refused, and so is a reason that opens by contradicting it.
LEADS = {
    "zh": {"true": "正确", "false": "错误", "misleading": "误导", "unverifiable": "无法验证"},
    "en": {v: v for v in VERDICTS},
}
_LEAD = {"zh": re.compile(r"^\s*【(?P<word>[^】]*)】\s*"), "en": re.compile(r"^\s*\[(?P<word>[^\]]*)\]\s*")}
_WRAP = {"zh": "【{}】", "en": "[{}] "}
# Openings that say the opposite of the verdict (after the lead): a reason of a true
# claim that opens "Backwards." / "说反了" argues against it.
CONTRADICTS = {
    "en": {
        "true": r"(?:wrong|false|incorrect|backwards|misleading|incomplete|not true|no[,.])\b",
        "false": r"(?:right|correct|true|holds|exactly|yes)\b",
        "misleading": r"(?:wrong|false|exactly right|correct)\b",
        "unverifiable": r"(?:wrong|false|right|correct)\b",
    },
    "zh": {
        "true": r"(?:错|不对|说反了|反了|不成立|不完整|不准确|误导)",
        "false": r"(?:对[。，]|正确|成立|没错|确实如此)",
        "misleading": r"(?:完全正确|完全错误)",
        "unverifiable": r"(?:正确|错误|成立)",
    },
}


def with_lead(reason: str, verdict: str, lang: str) -> str:
    """``reason`` opened by the lead of ``verdict`` (used to add the leads once)."""
    if _LEAD[lang].match(reason):
        return reason
    return _WRAP[lang].format(LEADS[lang][verdict]) + reason


def add_leads(path: Path = DATA) -> int:
    """Open every reason that lacks one with the lead of its claim's verdict (a text
    edit: the file keeps its layout); the number of reasons changed. For merges:
    ``python -c "from tools.chapters.factcheck.load import add_leads; add_leads()"``."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    verdict, changed = None, 0
    for i, line in enumerate(lines):
        m = re.match(r"^    verdict: (\S+)\s*$", line)
        if m:
            verdict = m[1].strip("\"'")
        m = re.match(r'^(    reason_(zh|en): ")(.*)$', line)
        if m and verdict in VERDICTS:
            new = with_lead(m[3], verdict, m[2])
            if new != m[3]:
                lines[i], changed = f"{m[1]}{new}\n", changed + 1
    if changed:
        from tools.core import files

        files.write_text(path, "".join(lines))
    return changed


def _check_reasons(claim: dict, where: str) -> None:
    verdict = claim["verdict"]
    for lang in LANGS:
        key = f"reason_{lang}"
        text = str(claim[key])
        m = _LEAD[lang].match(text)
        leads = ", ".join(f"{_WRAP[lang].format(w).strip()} {v}" for v, w in LEADS[lang].items())
        if not m:
            raise _fail(
                where,
                f"{key} must open with the verdict it argues for ({leads}), e.g. "
                f"{_WRAP[lang].format(LEADS[lang][verdict]).strip()}: a verdict then cannot change "
                "without its reasons.",
            )
        argued = next((v for v, w in LEADS[lang].items() if w == m["word"].strip()), None)
        if argued is None:
            raise _fail(
                where, f"{key} opens with {m.group(0).strip()!r}, which is no verdict; use one of {leads}."
            )
        if argued != verdict:
            raise _fail(
                where,
                f"verdict is {verdict!r}, but {key} argues for {argued!r} (it opens "
                f"{m.group(0).strip()}). A verdict changes with its reasons: rewrite reason_zh and "
                f"reason_en so they argue for {verdict!r} and open with its lead, or restore the verdict.",
            )
        reason = text[m.end() :]
        if re.match(CONTRADICTS[lang][verdict], reason.strip(), re.I):
            raise _fail(
                where,
                f"{key} opens {reason.strip()[:30]!r}, which says the opposite of the verdict "
                f"{verdict!r}. Make the verdict and its reasons agree.",
            )
        claim[key] = reason


def check_entry(entry: object, place: str, root: Path = ROOT) -> dict:
    """The validated claim, normalized; ``place`` (file:line) names it in errors."""
    where = f"{place}, entry {entry['id']}"
    claim = dict(entry)
    _check_identity(claim, where)
    _check_reasons(claim, where)
    _check_evidence(claim, where, root)
    _check_pages(claim, where, root)
    return claim


def load_claims(path: Path = DATA, root: Path = ROOT) -> list[dict]:
    """Read and validate the data file; raise FactCheckError naming the first bad entry."""
    name = rel(path)
    doc = datafile.load(path, SCHEMA, entries="claims", error=FactCheckError)
    claims = [
        check_entry(entry, f"{name}:{doc.line(('claims', i))}", root)
        for i, entry in enumerate(doc.data["claims"])
    ]
    seen = Counter(c["id"] for c in claims)
    dupes = sorted(i for i, n in seen.items() if n > 1)
    if dupes:
        raise _fail(name, f"duplicate id {', '.join(dupes)}.")
    if root == ROOT:
        problems = citation_problems({c["id"]: c["verdict"] for c in claims})
        if problems:
            raise FactCheckError("\n".join(problems))
    return claims


# A box on a page that cites a claim says what the page thinks of it: a warning
# ("常见误解" / "Common misconception") cites a claim that is not true; a success box
# ("常见说法" / "A common statement") cites a true one. A verdict that changes under
# a page that still says otherwise is refused.
_BOX = re.compile(
    r"^(?P<i>[ \t]*)(?:!!!|\?\?\?\+?)[ \t]+(?P<kind>[\w-]+)(?P<title>[^\n]*)\n"
    r"(?P<body>(?:(?P=i)    .*\n|[ \t]*\n)*)",
    re.M,
)
_REFUTING = {"warning", "danger", "failure", "bug", "caution", "attention", "error"}
_CITED = re.compile(r"fact-check\.md#(?P<id>s\d{3}-\d{2})")


def citation_problems(verdicts: dict[str, str]) -> list[str]:
    """Boxes whose kind disagrees with the verdict of a claim they cite."""
    from tools.pages import parse as pages

    problems = []
    for lang in LANGS:
        for page in pages.pages(lang):
            md = pages.text(lang, page)
            for box in _BOX.finditer(md):
                kind = box["kind"].lower()
                for cited in _CITED.finditer(box["body"]):
                    verdict = verdicts.get(cited["id"])
                    refutes = kind in _REFUTING and verdict == "true"
                    confirms = kind == "success" and verdict not in (None, "true")
                    if refutes or confirms:
                        says = "refutes it" if refutes else "confirms it"
                        problems.append(
                            f"docs/{lang}/{page.as_posix()}: the {kind} box {box['title'].strip()} cites "
                            f"fact-check.md#{cited['id']}, whose verdict in {rel(DATA)} is {verdict!r}, "
                            f"but the box {says}. Make the verdict and the page agree: restore the "
                            "verdict, or rewrite the box (in both languages)."
                        )
    return problems
