"""MkDocs hook: the fact-check table, generated from ``data/fact-check.yml``.

``docs/<lang>/fact-check.md`` holds the marker ``<!-- fact-check-table -->``; at build time
this hook replaces it with a verdict count and a table in the page's language. Every
entry is validated first: an unknown verdict, a missing field or an evidence path that
does not exist fails the build with a ``PluginError`` naming the entry.

Usable without MkDocs too (``tests/test_fact_check.py``): ``load_claims()`` validates the
data file and ``render(claims, lang)`` returns the Markdown that replaces the marker.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(ROOT))

from tools import pages  # noqa: E402

DATA = ROOT / "data" / "fact-check.yml"
MARKER = "<!-- fact-check-table -->"
PAGE = "fact-check.md"
VERDICTS = ("true", "false", "misleading", "unverifiable")
REQUIRED = ("id", "seed", "section", "quote", "quote_en", "verdict", "reason_zh", "reason_en", "evidence")
OPTIONAL = ("benchmark", "gpu", "see")
POST_NAMES = {"000": "A", "002": "B", "003": "C"}  # what readers call the posts
_SECTION_START = re.compile(r"^#\s*-{1,}8<-{1,}\s+\[\s*start\s*:\s*(?P<name>[-_0-9a-z]+)\s*\]\s*$", re.M)
_ID = re.compile(r"^s\d{3}-\d{2}$")

LABELS = {
    "zh": {
        "verdict": {"true": "正确", "false": "错误", "misleading": "误导", "unverifiable": "无法验证"},
        "header": ("说法", "结论", "理由与证据"),
        "seed": "博文 {post} 第 {section} 节",
        "seed_intro": "博文 {post} 开头",  # reader-facing post names: see docs/*/fact-check.md#posts
        "summary": "共 {n} 条说法：",
        "benchmark": "基准测试",
        "evidence": "证据：",
        "gpu": "GPU：尚未测量",
        "see": "另见：",
        "sep": "、",
    },
    "en": {
        "verdict": {
            "true": "true",
            "false": "false",
            "misleading": "misleading",
            "unverifiable": "unverifiable as stated",
        },
        "header": ("Claim", "Verdict", "Why, and the evidence"),
        "seed": "Post {post}, section {section}",
        "seed_intro": "Post {post}, opening",
        "summary": "{n} claims: ",
        "benchmark": "benchmark",
        "evidence": "Evidence: ",
        "gpu": "GPU: not yet measured",
        "see": "see also: ",
        "sep": ", ",
    },
}


class FactCheckError(PluginError):
    """A bad entry in data/fact-check.yml; the message names the entry and the fix."""


def _fail(where: str, what: str) -> FactCheckError:
    return FactCheckError(f"data/fact-check.yml, entry {where}: {what}")


def split_evidence(evidence: str) -> tuple[str, str | None]:
    """``'snippets/x/y.py:sec'`` -> ``('snippets/x/y.py', 'sec')``."""
    path, _, section = evidence.partition(":")
    return path, section or None


def _check(entry: object, index: int, root: Path) -> dict:
    if not isinstance(entry, dict):
        raise _fail(f"#{index}", f"expected a mapping, got {type(entry).__name__}.")
    where = f"{entry.get('id', f'#{index}')!s}"
    missing = [f for f in REQUIRED if entry.get(f) in (None, "")]
    if missing:
        raise _fail(where, f"missing field(s) {missing}; every entry needs {list(REQUIRED)}.")
    unknown = sorted(set(entry) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise _fail(where, f"unknown field(s) {unknown}; allowed: {list(REQUIRED + OPTIONAL)}.")
    claim = dict(entry)
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
    for field in ("section", "quote", "quote_en", "reason_zh", "reason_en"):
        claim[field] = str(claim[field])
    if re.search(r"[\u4e00-\u9fff]", claim["quote_en"] + claim["reason_en"]):
        raise _fail(where, "quote_en / reason_en contain Chinese characters; translate them.")
    path, section = split_evidence(str(claim["evidence"]))
    if not (path.startswith(("snippets/", "benchmarks/")) and path.endswith(".py")):
        raise _fail(where, f"evidence {path!r} must be a snippets/...py or benchmarks/...py file.")
    file = root / path
    if not file.is_file():
        raise _fail(where, f"evidence file {path!r} does not exist.")
    if section is not None:
        names = {m["name"] for m in _SECTION_START.finditer(file.read_text(encoding="utf-8"))}
        if section not in names:
            raise _fail(where, f"evidence section {section!r} is not in {path} (has {sorted(names)}).")
    if "benchmark" in claim:
        page = str(claim["benchmark"])
        for lang in pages.LANGS:
            if not (root / "docs" / lang / page).is_file():
                raise _fail(where, f"benchmark page docs/{lang}/{page} does not exist.")
    if "see" in claim:
        see = claim["see"]
        if isinstance(see, str):
            see = [see]
        if not (isinstance(see, list) and see and all(isinstance(s, str) and s.endswith(".md") for s in see)):
            raise _fail(where, "see must be a page path or a list of page paths under docs/<lang>/ (….md).")
        for page in see:
            for lang in pages.LANGS:
                if not (root / "docs" / lang / page).is_file():
                    raise _fail(where, f"see page docs/{lang}/{page} does not exist.")
        claim["see"] = see
    if "gpu" in claim and not isinstance(claim["gpu"], bool):
        raise _fail(where, "gpu must be true or false.")
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
    claims = [_check(entry, i, root) for i, entry in enumerate(data["claims"], 1)]
    seen = Counter(c["id"] for c in claims)
    dupes = sorted(i for i, n in seen.items() if n > 1)
    if dupes:
        raise _fail(", ".join(dupes), "duplicate id.")
    return claims


@cache
def _page_index(lang: str) -> dict[str, tuple[str, str | None]]:
    """Snippet file (repo-relative) -> (page, anchor of the heading above its first include).

    The page whose path mirrors the snippet's folder wins; otherwise the first page.
    """
    found: dict[str, dict[str, str | None]] = {}
    for page in pages.pages(lang):
        md = pages.text(lang, page)
        for m in pages._INCLUDE.finditer(md):
            inc = pages.includes(m.group(0))[0]
            try:
                key = inc.path.relative_to(ROOT).as_posix()
            except ValueError:
                continue
            before = pages.anchors(md[: m.start()])
            found.setdefault(key, {}).setdefault(page.as_posix(), before[-1] if before else None)
    out = {}
    for key, by_page in found.items():
        owner = key.removeprefix("snippets/").rsplit("/", 1)[0] + ".md"
        page = owner if owner in by_page else next(iter(by_page))
        out[key] = (page, by_page[page])
    return out


def evidence_link(claim: dict, lang: str, from_page: str = PAGE) -> str:
    """Markdown for the evidence cell: a link to the page that shows it, and its path."""
    path, section = split_evidence(claim["evidence"])
    label = f"`{path}`" + (f" `:{section}`" if section else "")
    found = _page_index(lang).get(path)
    if found is None:
        return label
    page, anchor = found
    rel = os.path.relpath(page, os.path.dirname(from_page) or ".")
    target = ("" if page == from_page else rel) + (f"#{anchor}" if anchor else "")
    name = {"zh": "见下文", "en": "below"}.get(lang, "") if page == from_page else page.removesuffix(".md")
    return f"[{name}]({target or rel}) {label}"


def _cell(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for ch in "`*_[]<>|":
        text = text.replace(ch, "\\" + ch)
    return text.replace("\n", " ")


def render(claims: list[dict], lang: str, from_page: str = PAGE) -> str:
    """The Markdown that replaces the marker: a verdict count and the table."""
    if lang not in LABELS:
        raise ValueError(f"lang must be one of {list(LABELS)}, got {lang!r}.")
    lab = LABELS[lang]
    counts = Counter(c["verdict"] for c in claims)
    summary = lab["summary"].format(n=len(claims)) + lab["sep"].join(
        f"**{lab['verdict'][v]}** {counts.get(v, 0)}" for v in VERDICTS
    )
    lines = [summary, "", "| " + " | ".join(lab["header"]) + " |", "|" + "---|" * len(lab["header"])]
    for c in claims:
        quote = c["quote"] if lang == "zh" else c["quote_en"]
        reason = c["reason_zh"] if lang == "zh" else c["reason_en"]
        evidence = evidence_link(c, lang, from_page)
        if "benchmark" in c:
            rel = os.path.relpath(c["benchmark"], os.path.dirname(from_page) or ".")
            evidence += f"; [{lab['benchmark']}]({rel})"
        if c.get("gpu"):
            evidence += f"; {lab['gpu']}"
        if c.get("see"):
            links = [
                f"[{page.removesuffix('.md')}]({os.path.relpath(page, os.path.dirname(from_page) or '.')})"
                for page in c["see"]
            ]
            evidence += f"<br>{lab['see']}" + lab["sep"].join(links)
        verdict = f"**{lab['verdict'][c['verdict']]}**"
        where = "seed_intro" if c["section"] == "intro" else "seed"
        source = lab[where].format(post=POST_NAMES[c["seed"]], section=c["section"])
        row = [
            f'<span id="{c["id"]}">**{c["id"]}**</span> · {source}<br>“{_cell(quote)}”',
            verdict,
            f"{_cell(reason)}<br>{lab['evidence']}{evidence}",
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def _lang_of(page, config) -> str:
    uri = page.file.src_uri
    first = uri.split("/", 1)[0]
    if first in pages.LANGS:
        return first
    lang = str(config.theme.get("language") or "zh")
    return lang if lang in pages.LANGS else "zh"


def on_pre_build(config) -> None:
    _page_index.cache_clear()  # mkdocs serve rebuilds in the same process


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    if markdown.count(MARKER) != 1:
        raise FactCheckError(f"{page.file.src_uri}: the marker {MARKER} must appear exactly once.")
    claims = load_claims(DATA)
    lang = _lang_of(page, config)
    src = page.file.src_uri
    from_page = src.split("/", 1)[1] if src.split("/", 1)[0] in pages.LANGS else src
    return markdown.replace(MARKER, render(claims, lang, from_page))
