"""The changelog, in Markdown, from the classified torch-version results.

``render(matrix, lang, from_page)`` takes the results (``tools.versions.results.
load_matrix``, with the classes of ``data/torch-versions/differences.yml``) and
returns, per pair of neighbouring checked releases, the behaviour, API and wording
changes the site's code observed between them, each linking to the page and block
that shows it. Environment results are never listed. No MkDocs needed: a test calls
it directly; ``tools/build/generate.py`` writes it for the page to include.
"""

from __future__ import annotations

import re

from tools.chapters.factcheck.render import page_index, page_link
from tools.core.i18n import UI
from tools.pages import parse as pages
from tools.versions import differences as why
from tools.versions import results as tv

PAGE = "reference/changelog.md"
ORDER = ("behaviour", "unavailable", "wording")  # within a release pair
TEXT = UI["changelog"]


def changes(matrix) -> dict[tuple[str, str], list[why.Difference]]:
    """(older, newer) neighbouring checked releases -> the entries that change between
    the two, in the order ``ORDER``: an entry on releases before the pin is listed where
    it ends (the next release behaves as the page shows), one after the pin where it
    starts."""
    checked = matrix.versions
    out: dict[tuple[str, str], list[why.Difference]] = {}
    entries = [d for d in (matrix.differences.entries if matrix.differences else []) if d.cls in ORDER]
    for d in sorted(entries, key=lambda d: ORDER.index(d.cls)):
        mine = sorted((v for v in d.releases if v in checked), key=checked.index)
        if not mine:
            continue
        if tv.version_key(mine[-1]) < tv.version_key(tv.REFERENCE):
            i = checked.index(mine[-1])
            pair = (checked[i], checked[i + 1])
        else:
            i = checked.index(mine[0])
            pair = (checked[i - 1], checked[i])
        out.setdefault(pair, []).append(d)
    return dict(sorted(out.items(), key=lambda kv: tv.version_key(kv[0][1])))


def _heading_text(lang: str, page: str, anchor: str) -> str | None:
    m = re.search(rf"^#+ (?P<title>.+?)\s*\{{\s*#{re.escape(anchor)}\s*\}}\s*$", pages.text(lang, page), re.M)
    return m["title"] if m else None


def links(d: why.Difference, lang: str, from_page: str = PAGE) -> list[str]:
    """A link to each place a reader sees one of ``d``'s blocks: page title, heading."""
    index, out = page_index(lang), []
    for snippet, section in d.blocks:
        shown = index.get((snippet, section)) or index.get((snippet, None))
        if shown is None:
            raise ValueError(f"{d.place}: no docs/{lang} page embeds {snippet}:{section}")
        link = page_link(lang, shown.page, from_page, shown.anchor)
        heading = _heading_text(lang, shown.page, shown.anchor) if shown.anchor else None
        if heading:
            name, target = link[1:].split("](", 1)
            link = f"[{name} › {heading.replace('[', '').replace(']', '')}]({target}"
        if link not in out:
            out.append(link)
    return out


def _anchor(version: str) -> str:
    return "torch-" + version.replace(".", "-")


def render(matrix, lang: str, from_page: str = PAGE) -> str:
    """The changelog's Markdown: the releases, then one section per release pair."""
    t, v = TEXT[lang], UI["versions"][lang]
    checked = matrix.versions
    pairs = changes(matrix)
    example = t["heading"].format(old="2.10.0", new="2.13.0")
    if pairs:
        example = t["heading"].format(old=next(iter(pairs))[0], new=next(iter(pairs))[1])
    out = [
        t["releases"].format(versions=v["and"].join(checked), pin=tv.REFERENCE, example=example),
        "",
    ]
    if not pairs:
        return "\n".join([*out, t["none"], ""])
    for (old, new), entries in pairs.items():
        out += [f"## {t['heading'].format(old=old, new=new)} {{ #{_anchor(new)} }}", ""]
        for d in entries:
            where = ("；" if lang == "zh" else "; ").join(links(d, lang, from_page))
            colon, space = ("：", "") if lang == "zh" else (": ", " ")
            text = why.sentence(d, checked, lang, "changelog")
            out.append(f"- **{t[d.cls + '_label']}**{colon}{text}{space}{t['seen']}{colon}{where}")
        out.append("")
    return "\n".join(out)
