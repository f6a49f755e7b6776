"""The API inventory's pages, rendered from the validated data (``tools.chapters.apis.load``).

``render_namespace(inv, lang, ns)`` gives one namespace's page: a table of its APIs
first (the answer a reader looks up), then one section per API with its anchor, its
sentences, its evidence and the recorded output. ``render_index(inv, lang)`` gives the
chapter's index: every API a line, the deprecated ones, and how the list was made.
``pages()`` maps every page under ``docs/<lang>/apis/`` to its Markdown, ``stale()``
lists the committed ones that differ and ``write()`` rewrites them.
"""

from __future__ import annotations

import os
from pathlib import Path

from tools.chapters.apis.load import APIS_DIR, Api, Inventory, load
from tools.chapters.faq.load import join_lines
from tools.core.i18n import UI
from tools.core.repo import DOCS, LANGS, ROOT
from tools.pages import parse as page_files

WRITE_HINT = ".venv/bin/python -m tools apis write"
LABELS = UI["apis"]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _front(description: str) -> list[str]:
    return ["---", f"description: {_cell(description)}", "---", ""]


def _header(lang: str) -> str:
    return f"<!-- {LABELS[lang]['generated'].format(cmd=WRITE_HINT)} -->"


def _rel(target: str, from_page: str) -> str:
    page, _, anchor = target.partition("#")
    rel = os.path.relpath(page, os.path.dirname(from_page) or ".")
    return rel + (f"#{anchor}" if anchor else "")


def _code_block(api: Api, lang: str) -> list[str]:
    lab = LABELS[lang]
    parts: list[str] = []
    for ev in api.evidence:
        parts += [f'``` python title="{ev.path}"', f'--8<-- "{ev.include}:{ev.section}"', "```", ""]
        if ev.notes[lang]:
            parts += [f"{n}.  {note}" for n, note in enumerate(ev.notes[lang], 1)] + [""]
        parts += [
            f'``` text title="{lab["output"]}"',
            f'--8<-- "{ev.record_include}:{ev.section}"',
            "```",
            "",
        ]
    return parts


def _entry(api: Api, lang: str) -> str:
    lab = LABELS[lang]
    parts = [f"## `{api.title}` {{ #{api.id} }}", ""]
    if api.deprecated:
        parts += [f"*{lab['deprecated']}*", ""]
    parts += [api.text[lang], ""]
    if api.params:
        # .arguments: search finds the entry by these names (tools/build/search.py)
        parts += [lab["params"] + lab["sep"].join(f"`{p}`" for p in api.params), "{: .arguments }", ""]
    parts += _code_block(api, lang)
    if api.see:
        title = page_files.title(lang, api.see.partition("#")[0])
        parts += [f"{lab['see']}[{title}]({_rel(api.see, api.page)})", ""]
    return "\n".join(parts)


def _table(apis: list[Api], lang: str, link) -> list[str]:
    lab = LABELS[lang]
    rows = [f"| {lab['api']} | {lab['what']} |", "|---|---|"]
    rows += [f"| [`{a.title}`]({link(a)}) | {_cell(a.short[lang])} |" for a in apis]
    return [*rows, ""]


def render_namespace(inv: Inventory, lang: str, namespace: str) -> str:
    """One namespace's page: its table of APIs, then one section per API."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    if namespace not in inv.namespaces:
        raise ValueError(f"unknown namespace {namespace!r}; known: {list(inv.namespaces)}.")
    ns = inv.namespaces[namespace]
    apis = inv.in_namespace(namespace)
    parts = [*_front(ns[f"description_{lang}"]), f"# {ns[f'title_{lang}']}", "", _header(lang), ""]
    parts += [join_lines(ns[f"intro_{lang}"]), ""]
    parts += _table(apis, lang, lambda a: f"#{a.id}")
    parts += [_entry(a, lang) for a in apis]
    return "\n".join(parts).rstrip("\n") + "\n"


def _excused_block(inv: Inventory, lang: str) -> list[str]:
    lab = LABELS[lang]
    n = sum(len(e.names) for e in inv.out_of_scope)
    parts = [f'??? info "{lab["excused"].format(n=n)}"', ""]
    for group in inv.out_of_scope:
        names = lab["sep"].join(f"`{name.removeprefix('torch.')}`" for name in group.names)
        parts.append(f"    - {group.reason[lang]}{'：' if lang == 'zh' else ': '}{names}")
    return [*parts, ""]


def render_index(inv: Inventory, lang: str, candidates: int) -> str:
    """The chapter's index: namespaces, every API a line, deprecated ones, the method."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    lab = LABELS[lang]
    page = f"{APIS_DIR}/index.md"
    parts = [*_front(lab["description"]), f"# {lab['title']}", "", _header(lang), ""]
    parts += [lab["lead"].format(n=len(inv.apis)), ""]
    for ns, names in inv.namespaces.items():
        count = lab["count"].format(n=len(inv.in_namespace(ns)))
        parts.append(f"- [{names[f'title_{lang}']}]({ns}.md){'：' if lang == 'zh' else ': '}{count}")
    parts += ["", f"## {lab['all']}", ""]
    for ns, names in inv.namespaces.items():
        parts += [f"**{names[f'title_{lang}']}**", ""]
        parts += _table(inv.in_namespace(ns), lang, lambda a: _rel(f"{a.page}#{a.id}", page))
    deprecated = [a for a in inv.apis if a.deprecated]
    parts += [f"## {lab['deprecated_head']}", "", lab["deprecated_text"], ""]
    parts += [f"- [`{a.title}`]({_rel(f'{a.page}#{a.id}', page)})" for a in deprecated] + [""]
    covered = sum(1 for a in inv.apis for name in a.covers if ":" not in name)
    excused = sum(len(e.names) for e in inv.out_of_scope)
    method = lab["method_text"].format(
        candidates=candidates, covered=covered, entries=len(inv.apis), excused=excused
    )
    parts += [f"## {lab['method']}", "", method, "", *_excused_block(inv, lang)]
    return "\n".join(parts).rstrip("\n") + "\n"


def pages(inv: Inventory, candidates: int) -> dict[Path, str]:
    """Every generated page: docs path -> Markdown."""
    out: dict[Path, str] = {}
    for lang in LANGS:
        out[DOCS / lang / APIS_DIR / "index.md"] = render_index(inv, lang, candidates)
        for ns in inv.namespaces:
            out[DOCS / lang / APIS_DIR / f"{ns}.md"] = render_namespace(inv, lang, ns)
    return out


def _candidate_count() -> int:
    from tools.chapters.apis.candidates import candidates

    return len(candidates())


def stale(inv: Inventory | None = None, candidates: int | None = None) -> list[str]:
    """Generated pages whose committed file differs from the data (repo-relative)."""
    inv = inv or load()
    generated = pages(inv, candidates if candidates is not None else _candidate_count())
    bad = [
        p.relative_to(ROOT).as_posix()
        for p, text in generated.items()
        if not p.is_file() or p.read_text(encoding="utf-8") != text
    ]
    known = {p.resolve() for p in generated}
    for lang in LANGS:
        for extra in sorted((DOCS / lang / APIS_DIR).glob("*.md")):
            if extra.resolve() not in known:
                bad.append(extra.relative_to(ROOT).as_posix() + " (no namespace in the data; delete it)")
    return bad


def write() -> list[Path]:
    inv = load()
    written = []
    for path, text in pages(inv, _candidate_count()).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written
