"""HTML and Markdown of the downloads around a page (tools/downloads/hook.py adds them).

- the bar under the page title that links the page's script and notebook
  (tools/downloads/files.py) and the Run-the-code page;
- code-block titles ``snippets/x.py`` that link to the copy published with the
  site and, when a source repository is configured, to the file (and the lines
  of the section shown) at the built commit;
- the Run-the-code page's placeholders: the wheel's name, URL and requirements,
  the site's URL and the repository.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

from tools.core.i18n import UI
from tools.downloads.files import download_uri
from tools.pages import parse as pages
from tools.snippets.source import parse

RUN_PAGE = "run-yourself.md"
LABELS = UI["downloads.html"]
_FILENAME = re.compile(r'<span class="filename">(?P<title>snippets/[^<]+)</span>')
_TITLE = re.compile(r'title="(?P<title>[^"]+)"')
_H1_END = re.compile(r"</h1>")


def _titled_includes(markdown: str) -> list[tuple[str, Path | None, str | None]]:
    """(title, first included file, its section) of each fence titled snippets/...,
    in page order: the order of the filename spans in the rendered page."""
    out = []
    for _, info, body in pages.fences(markdown):
        m = _TITLE.search(info)
        if not m or not m["title"].startswith("snippets/"):
            continue
        incs = pages.includes(body)
        out.append((m["title"], incs[0].path if incs else None, incs[0].section if incs else None))
    return out


def _section_lines(path: Path, section: str | None) -> str:
    if section is None:
        return ""
    for chunk in parse(path).chunks:
        if chunk.name == section:
            return f"#L{chunk.first_line}-L{chunk.last_line}"
    return ""


def download_bar(lang: str, rel_page: Path, page_url: str) -> str:
    """The bar under the title: the page's .py and .ipynb, and how to run them."""
    labels = LABELS[lang]
    links = []
    for suffix, label, title in ((".py", "py", "py_title"), (".ipynb", "ipynb", "ipynb_title")):
        uri = download_uri(lang, rel_page, suffix)
        href = get_relative_url(uri, page_url)
        name = Path(uri).name
        links.append(
            f'<a href="{href}" download="{name}" title="{html.escape(labels[title])}">{labels[label]}</a>'
        )
    run = RUN_PAGE.replace(".md", "/")
    run_href = get_relative_url(run if lang == pages.LANGS[0] else f"{lang}/{run}", page_url)
    links.append(f'<a href="{run_href}">{labels["how"]}</a>')
    return (
        f'<div class="page-downloads"><span class="page-downloads__label">{labels["bar"]}</span>'
        + "".join(f'<span class="page-downloads__item">{link}</span>' for link in links)
        + "</div>"
    )


def add_download_bar(html_text: str, lang: str, rel_page: Path, page_url: str) -> str:
    """The page's HTML with the download bar right after its title."""
    m = _H1_END.search(html_text)
    at = m.end() if m else 0
    return html_text[:at] + download_bar(lang, rel_page, page_url) + html_text[at:]


def link_snippet_titles(
    html_text: str, markdown: str, page_url: str, lang: str, repo: tuple[str, str] | None
) -> str:
    """Each code-block title ``snippets/...`` as a link to the published copy and,
    with ``repo`` (URL, commit), to the file at that commit."""
    titled = _titled_includes(markdown)
    spans = list(_FILENAME.finditer(html_text))
    aligned = len(titled) == len(spans) and all(t[0] == s["title"] for t, s in zip(titled, spans))
    labels = LABELS[lang]

    def link(m: re.Match, index: list[int] = [0]) -> str:  # noqa: B006 - a counter
        title = m["title"]
        href = get_relative_url(title, page_url)
        out = f'<span class="filename"><a href="{href}" title="{labels["served"]}">{title}</a>'
        if repo:
            url, commit = repo
            anchor = ""
            if aligned:
                _, path, section = titled[index[0]]
                if path is not None and path.suffix == ".py" and path.is_file():
                    anchor = _section_lines(path, section)
            out += (
                f' <a class="page-downloads__repo" href="{url}/blob/{commit}/{title}{anchor}" '
                f'title="{labels["repo_title"]}">{labels["repo"]}</a>'
            )
        index[0] += 1
        return out + "</span>"

    counter = [0]
    return _FILENAME.sub(lambda m: link(m, counter), html_text)


def fill_run_page(
    markdown: str,
    lang: str,
    *,
    wheel_uri: str,
    wheel_name: str,
    wheel_meta: dict,
    site_url: str,
    repo: tuple[str, str] | None,
) -> str:
    """The Run-the-code page with its placeholders filled in (the repository block
    dropped when no repository is configured)."""
    markdown = markdown.replace("@WHEEL_URI@", wheel_uri).replace("@WHEEL@", wheel_name)
    markdown = markdown.replace("@SITE_URL@", site_url)
    runtime = [
        r for r in wheel_meta["requires_dist"] if "extra ==" not in r.replace('"', "").replace("'", "")
    ]
    requires = LABELS[lang]["sep"].join(f"`{r}`" for r in runtime) or LABELS[lang]["nothing"]
    markdown = markdown.replace("@WHEEL_REQUIRES@", requires)
    markdown = markdown.replace("@WHEEL_PYTHON@", wheel_meta["requires_python"] or "*")

    def repo_block(m: re.Match) -> str:
        if repo is None:
            return ""
        url, commit = repo
        return m["body"].replace("@REPOSITORY@", url).replace("@COMMIT@", commit)

    return re.sub(
        r"<!-- repository: -->\n(?P<body>.*?)<!-- :repository -->\n?", repo_block, markdown, flags=re.DOTALL
    )


def run_page_values(
    lang: str, *, wheel: Path, site_url: str, repo: tuple[str, str] | None = None
) -> dict[str, str]:
    """The Run-the-code page's generated parts (``tools.build.generate`` writes them to
    ``generated/<lang>/run-yourself/``; the page includes them): the line that sets
    the site's address, the wheel's install line, what the wheel requires, and the
    repository block (empty without a configured repository)."""
    from tools.downloads import wheel as helper_wheel
    from tools.downloads.files import DOWNLOADS

    labels = LABELS[lang]
    meta = helper_wheel.metadata(wheel)
    runtime = [r for r in meta["requires_dist"] if "extra ==" not in r.replace('"', "").replace("'", "")]
    requires = labels["sep"].join(f"`{r}`" for r in runtime) or labels["nothing"]
    python = meta["requires_python"] or "*"
    block = ""
    if repo is not None:
        url, commit = repo
        block = labels["repository"].format(url=url, commit=commit) + "\n"
    return {
        "run-yourself/site.txt": f"SITE={site_url}",  # a line inside a code block: no newline
        "run-yourself/wheel-install.txt": f'pip install "$SITE/{DOWNLOADS}/{wheel.name}"',
        "run-yourself/wheel.md": labels["wheel"].format(python=python, requires=requires) + "\n",
        "run-yourself/repository.md": block,
    }
