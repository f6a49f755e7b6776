"""MkDocs hook: per-page downloads, published snippet files, the helper's wheel,
and code-block titles that link to their source.

Listed under ``hooks:`` in mkdocs.yml, so ``mkdocs build`` and ``mkdocs serve`` both
run it. For each page with code it adds ``downloads/<page>.py`` and ``.ipynb``
(``en/downloads/...`` for English; see tools/downloads.py) and a small bar under
the page title that links them. Every ``snippets/...`` file is published under
``snippets/``, and every code-block title ``snippets/x.py`` becomes a link to that
copy. When ``extra.source_repository`` is set (the Pages workflow sets it from
GITHUB_SERVER_URL/GITHUB_REPOSITORY through SOURCE_REPOSITORY), the title also
links to the file at the built commit. Nothing here makes the page load anything
from another host.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(ROOT))

from tools import build_cache, helper_wheel, pages  # noqa: E402
from tools import downloads as dl  # noqa: E402
from tools.repo import DOCS, SNIPPETS  # noqa: E402
from tools.snippet_source import SnippetError, parse  # noqa: E402

RUN_PAGE = "run-yourself.md"
LABELS = {
    "zh": {
        "bar": "本页代码",
        "py": "Python 脚本（.py）",
        "ipynb": "Jupyter 笔记本（.ipynb）",
        "how": "怎样运行",
        "py_title": "本页全部代码，按页面顺序排成一个脚本；测试运行的就是它",
        "ipynb_title": "本页代码的笔记本，附有记录的输出",
        "served": "打开本站发布的这个文件",
        "repo": "仓库",
        "repo_title": "在代码仓库中查看（构建时的提交）",
        "nothing": "无",
        "sep": "、",
    },
    "en": {
        "bar": "Code on this page",
        "py": "Python script (.py)",
        "ipynb": "Jupyter notebook (.ipynb)",
        "how": "How to run",
        "py_title": "All the page's code as one script, in page order; the tests run this file",
        "ipynb_title": "The page's code as a notebook, with the recorded outputs",
        "served": "Open the copy of this file published with the site",
        "repo": "repository",
        "repo_title": "View in the source repository (at the built commit)",
        "nothing": "nothing else",
        "sep": ", ",
    },
}
_FILENAME = re.compile(r'<span class="filename">(?P<title>snippets/[^<]+)</span>')
_TITLE = re.compile(r'title="(?P<title>[^"]+)"')
_H1_END = re.compile(r"</h1>")

_state: dict = {"downloads": {}, "wheel": None}


def _lang(config: MkDocsConfig) -> str:
    lang = str(config.theme.get("language") or pages.LANGS[0]).split("_")[0].split("-")[0]
    return lang if lang in pages.LANGS else pages.LANGS[0]


def _commit() -> str | None:
    sha = os.environ.get("GITHUB_SHA")
    if sha:
        return sha
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10, check=False
        )
    except OSError:
        return None
    return out.stdout.strip() or None


def repository(config: MkDocsConfig) -> tuple[str, str] | None:
    """(repository URL, commit) when extra.source_repository is set, else None."""
    url = (config.extra or {}).get("source_repository")
    if not url:
        return None
    commit = _commit()
    return (str(url).rstrip("/"), commit) if commit else None


def _fingerprint(lang: str) -> tuple:
    """Changes when a page or snippet changes (mkdocs serve rebuilds)."""
    paths = [*(DOCS / lang).rglob("*.md"), *SNIPPETS.rglob("*.py"), *SNIPPETS.rglob("*.out")]
    return tuple(sorted((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths))


def _inputs(lang: str) -> list[Path]:
    """Every file the downloads of ``lang`` are made from (and the code that makes them)."""
    folders = [DOCS / lang, DOCS / "includes", SNIPPETS, ROOT / "includes"]
    found = [p for folder in folders if folder.is_dir() for p in folder.rglob("*") if p.is_file()]
    return [*found, *(ROOT / "tools").glob("*.py")]


def _downloads(lang: str) -> dict[str, str]:
    key = _fingerprint(lang)
    cached = _state["downloads"].get(lang)
    if cached and cached[0] == key:
        return cached[1]
    versions = build_cache.version("nbformat", "torch")
    digest = build_cache.key(lang, versions, build_cache.files_key(_inputs(lang)))
    stored = build_cache.get("downloads", digest)
    if stored is not None:
        made = json.loads(stored)
    else:
        try:
            made = dl.all_downloads(lang, cuda=False)
        except (dl.DownloadError, SnippetError) as err:
            raise PluginError(f"Page downloads: {err}") from None
        build_cache.put("downloads", digest, json.dumps(made, ensure_ascii=False))
    _state["downloads"][lang] = (key, made)
    return made


def _wheel() -> Path:
    if _state["wheel"] is None or not _state["wheel"].is_file():
        try:
            _state["wheel"] = helper_wheel.build()
        except helper_wheel.WheelError as err:
            raise PluginError(str(err)) from None
    return _state["wheel"]


def wheel_uri() -> str:
    return f"{dl.DOWNLOADS}/{_wheel().name}"


@event_priority(-200)  # after mkdocs-static-i18n (-100) has rebuilt the file list
def on_files(files: Files, config: MkDocsConfig) -> Files:
    lang = _lang(config)
    for uri, text in sorted(_downloads(lang).items()):
        files.append(File.generated(config, uri, content=text))
    for path in sorted([*SNIPPETS.rglob("*.py"), *SNIPPETS.rglob("*.out")]):
        uri = path.relative_to(ROOT).as_posix()
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    wheel = _wheel()
    if files.get_file_from_path(wheel_uri()) is None:
        files.append(File.generated(config, wheel_uri(), abs_src_path=str(wheel)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill in the Run-the-code page: the wheel's name and URL, the repository."""
    if "@WHEEL" not in markdown and "@SITE_URL@" not in markdown and "<!-- repository:" not in markdown:
        return markdown
    site = (config.site_url or "").rstrip("/")
    wheel = _wheel()
    markdown = markdown.replace("@WHEEL_URI@", wheel_uri()).replace("@WHEEL@", wheel.name)
    markdown = markdown.replace("@SITE_URL@", site)
    meta = helper_wheel.metadata(wheel)
    lang = _lang(config)
    runtime = [r for r in meta["requires_dist"] if "extra ==" not in r.replace('"', "").replace("'", "")]
    requires = LABELS[lang]["sep"].join(f"`{r}`" for r in runtime) or LABELS[lang]["nothing"]
    markdown = markdown.replace("@WHEEL_REQUIRES@", requires)
    markdown = markdown.replace("@WHEEL_PYTHON@", meta["requires_python"] or "*")
    repo = repository(config)

    def repo_block(m: re.Match) -> str:
        if repo is None:
            return ""
        url, commit = repo
        return m["body"].replace("@REPOSITORY@", url).replace("@COMMIT@", commit)

    markdown = re.sub(
        r"<!-- repository: -->\n(?P<body>.*?)<!-- :repository -->\n?", repo_block, markdown, flags=re.DOTALL
    )
    leftover = re.search(r"@[A-Z_]+@", markdown)
    if leftover:
        raise PluginError(f"{page.file.src_uri}: unknown placeholder {leftover.group(0)}")
    return markdown


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
            last = chunk.first_line + max(len(chunk.code.splitlines()) - 1, 0)
            return f"#L{chunk.first_line}-L{last}"
    return ""


def _bar(lang: str, page: Page) -> str:
    labels = LABELS[lang]
    src = Path(page.file.src_uri)
    rel_page = src.relative_to(lang) if src.parts[:1] == (lang,) else src
    links = []
    for suffix, label, title in ((".py", "py", "py_title"), (".ipynb", "ipynb", "ipynb_title")):
        uri = dl.download_uri(lang, rel_page, suffix)
        href = get_relative_url(uri, page.url)
        name = Path(uri).name
        links.append(
            f'<a href="{href}" download="{name}" title="{html.escape(labels[title])}">{labels[label]}</a>'
        )
    run = RUN_PAGE.replace(".md", "/")
    run_href = get_relative_url(run if lang == pages.LANGS[0] else f"{lang}/{run}", page.url)
    links.append(f'<a href="{run_href}">{labels["how"]}</a>')
    return (
        f'<div class="page-downloads"><span class="page-downloads__label">{labels["bar"]}</span>'
        + "".join(f'<span class="page-downloads__item">{link}</span>' for link in links)
        + "</div>"
    )


def on_page_content(html_text: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    lang = _lang(config)
    src = Path(page.file.src_uri)
    rel_page = src.relative_to(lang) if src.parts[:1] == (lang,) else src
    if files.get_file_from_path(dl.download_uri(lang, rel_page, ".py")) is not None:
        m = _H1_END.search(html_text)
        at = m.end() if m else 0
        html_text = html_text[:at] + _bar(lang, page) + html_text[at:]

    titled = _titled_includes(page.markdown or "")
    spans = list(_FILENAME.finditer(html_text))
    aligned = len(titled) == len(spans) and all(t[0] == s["title"] for t, s in zip(titled, spans))
    repo = repository(config)
    labels = LABELS[lang]

    def link(m: re.Match, index: list[int] = [0]) -> str:  # noqa: B006 - a counter
        title = m["title"]
        href = get_relative_url(title, page.url)
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
