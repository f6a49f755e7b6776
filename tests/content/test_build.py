"""The strict build passes and the built site requests nothing from other hosts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools.core.repo import ROOT
from tools.pages import parse as pages

from ..support.verdicts import build_inputs

_URL = re.compile(r"""https?://([a-zA-Z0-9.-]+)""")
_HTML_LOADS = re.compile(
    r"""<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\bsrc=["']([^"']+)["']"""
    r"""|<link\b[^>]*\bhref=["']([^"']+)["']""",
    re.I,
)
_CSS_LOADS = re.compile(r"""url\(\s*["']?([^"')]+)|@import\s+["']([^"']+)""", re.I)
LOCAL = {"127.0.0.1", "localhost"}

# Hosts that occur in Material's JS bundle as inert text: XML namespaces, licence
# comments, documentation links. Two of them are real loaders, each behind a feature
# this site keeps off (and the tests below check it stays off):
#   unpkg.com      Mermaid, loaded only for ```mermaid blocks
#   api.github.com repository facts, fetched only when repo_url is set
JS_INERT_HOSTS = {
    "www.w3.org",
    "github.com",
    "squidfunk.github.io",
    "www.mozilla.org",
    "snowball.tartarus.org",
    "code.google.com",
    "fontawesome.com",
    "en.wikipedia.org",
    "developer.mozilla.org",
    "clipboardjs.com",
    "bit.ly",
    "wiki.ecmascript.org",
    "wiki.commonjs.org",
    "underscorejs.org",
    "tartarus.org",
    "people.mozilla.org",
    "narwhaljs.org",
    "msdn.microsoft.com",
    "lunrjs.com",
    "docs.python.org",
    "chasen.org",
    "unpkg.com",
    "api.github.com",
    # Pagefind's pagefind.js parses a relative URL against this base (to set its anchor or
    # highlight parameter) and strips the base again: never requested.
    "example.com",
}


def _host(url: str) -> str | None:
    m = _URL.match(url.strip())
    return m.group(1).lower() if m else None


def test_strict_build_passes(built_site: Path):
    assert (built_site / "index.html").is_file()
    assert (built_site / "en" / "index.html").is_file()


def test_every_page_is_built_in_both_languages(built_site: Path):
    missing = []
    for page in pages.pages("zh"):
        stem = page.with_suffix("")
        rel = (
            Path()
            if stem.name == "index" and stem.parent == Path()
            else (stem.parent if stem.name == "index" else stem)
        )
        for prefix in (Path(), Path("en")):
            if not (built_site / prefix / rel / "index.html").is_file():
                missing.append(str(prefix / rel))
    assert not missing, f"Pages missing from the built site: {missing}"


def test_every_page_has_its_description_and_a_link_preview(built_site: Path):
    """Search excerpts and link previews show the page's own front-matter sentence, in
    its language (issue 32): <meta name="description"> and og:description carry it."""
    import html as html_lib

    import yaml

    wrong = []
    for lang, prefix in (("zh", Path()), ("en", Path("en"))):
        for page in pages.pages(lang):
            text = pages.text(lang, page)
            front = re.match(r"---\n(.*?)\n---\n", text, re.S)
            description = (yaml.safe_load(front[1]) or {}).get("description") if front else None
            stem = page.with_suffix("")
            rel = stem.parent if stem.name == "index" else stem
            built = (built_site / prefix / rel / "index.html").read_text(encoding="utf-8")
            tags = {
                name: html_lib.unescape(m[1])
                if (m := re.search(rf'<meta (?:name|property)="{name}" content="([^"]*)"', built))
                else None
                for name in ("description", "og:description", "og:title")
            }
            if (
                not description
                or tags["description"] != description.strip()
                or tags["og:description"] != tags["description"]
            ):
                wrong.append(f"docs/{lang}/{page}: front matter {description!r}, built {tags}")
            elif not tags["og:title"]:
                wrong.append(f"docs/{lang}/{page}: no og:title")
    assert not wrong, f"{len(wrong)} pages without their description:\n" + "\n".join(wrong[:20])


def test_html_and_css_load_nothing_from_other_hosts(built_site: Path):
    bad = []
    for path in built_site.rglob("*.html"):
        for m in _HTML_LOADS.finditer(path.read_text(encoding="utf-8", errors="replace")):
            url = m.group(1) or m.group(2)
            host = _host(url)
            if host and host not in LOCAL:
                bad.append(f"{path.relative_to(built_site)}: {url}")
    for path in built_site.rglob("*.css"):
        for m in _CSS_LOADS.finditer(path.read_text(encoding="utf-8", errors="replace")):
            url = m.group(1) or m.group(2)
            host = _host(url)
            if host and host not in LOCAL:
                bad.append(f"{path.relative_to(built_site)}: {url}")
    assert not bad, "The built site would request third-party hosts:\n" + "\n".join(bad[:20])


def test_javascript_names_only_known_inert_hosts(built_site: Path):
    found: dict[str, str] = {}
    for path in built_site.rglob("*.js"):
        for host in _URL.findall(path.read_text(encoding="utf-8", errors="replace")):
            found.setdefault(host.lower(), str(path.relative_to(built_site)))
    unknown = {h: f for h, f in found.items() if h not in JS_INERT_HOSTS | LOCAL}
    assert not unknown, f"New hosts in the built JavaScript (check they are never requested): {unknown}"


def test_features_that_would_load_from_cdns_stay_off():
    config = pages.mkdocs_config()
    assert "repo_url" not in config, "repo_url makes Material fetch repository facts from api.github.com"
    assert config["theme"].get("font") is False, "theme.font must be false (no Google Fonts)"
    mermaid = [
        f"docs/{lang}/{page}"
        for lang in pages.LANGS
        for page in pages.pages(lang)
        if re.search(r"^\s*(```|~~~)\s*mermaid", pages.text(lang, page), re.M)
    ]
    assert not mermaid, f"Mermaid blocks load Mermaid from a CDN; draw a figure instead: {mermaid}"


def test_api_reference_headings_follow_the_page_language(built_site: Path):
    zh = (built_site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    en = (built_site / "en" / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert "参数：" in zh and "返回：" in zh, "mkdocstrings section headings are not Chinese on the zh page"
    assert "Parameters:" in en and "Parameters:" not in zh


# Runs mkdocs with the wall clock moved forward (time.time and datetime.now), as if
# the same commit were built on another day; SOURCE_DATE_EPOCH is left to the hook.
_LATER = """
import datetime, sys, time
SHIFT = float(sys.argv.pop(1))
_time, _now = time.time, datetime.datetime.now
time.time = lambda: _time() + SHIFT
class Later(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return _now(tz) + datetime.timedelta(seconds=SHIFT)
datetime.datetime = Later
from mkdocs.__main__ import cli
sys.argv = ["mkdocs", *sys.argv[1:]]
cli()
"""


@pytest.mark.slow
def test_builds_on_different_days_are_byte_identical(built_site: Path, tmp_path: Path, verdict):
    if verdict.reuse("build-400-days-later", [], build_inputs()):
        return  # this build passed before with exactly these inputs
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    # The downloads are made afresh: their cache key (tools/core/cache.py) is the files
    # they are made from, so a date the code put into them would be reused from the first
    # build. Highlighting and search entries are keyed on their whole input (the page's
    # HTML included), so a date leaking into a page changes their keys anyway.
    env.update(NO_MKDOCS_2_WARNING="1", BUILD_CACHE_BYPASS="downloads")
    later = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-c", _LATER, str(400 * 86400), "build", "--strict", "-d", str(later)],
        cwd=pages.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    files = {p.relative_to(built_site) for p in built_site.rglob("*") if p.is_file()}
    files_later = {p.relative_to(later) for p in later.rglob("*") if p.is_file()}
    differ = sorted(str(p) for p in files ^ files_later)
    differ += sorted(
        str(p) for p in files & files_later if (built_site / p).read_bytes() != (later / p).read_bytes()
    )
    assert not differ, (
        "A build 400 days later differs: a date leaks into the site (the build date must "
        "come from SOURCE_DATE_EPOCH, which tools/site/theme.py sets from the commit date): "
        f"{differ[:20]}"
    )


GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


def test_properdocs_builds_the_same_site(built_site, tmp_path, verdict):
    """ProperDocs (the maintained MkDocs 1.x fork) builds this site byte for byte as
    MkDocs does, but for the generator tag: leaving MkDocs 1.x is one word in the
    Makefile (CONTRIBUTING.md, "The toolchain")."""
    if verdict.reuse("build-properdocs", [], build_inputs()):
        return  # this build passed before with exactly these inputs
    out = tmp_path / "site-properdocs"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    exe = Path(sys.executable).parent / "properdocs"
    proc = subprocess.run(
        [str(exe), "build", "--strict", "-f", "mkdocs.yml", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, "properdocs build --strict failed:\n" + proc.stderr[-4000:]
    ours = {p.relative_to(built_site) for p in built_site.rglob("*") if p.is_file()}
    theirs = {p.relative_to(out) for p in out.rglob("*") if p.is_file()}
    assert ours == theirs, f"files in one build only (MkDocs or ProperDocs): {sorted(ours ^ theirs)[:5]}"

    def same(p: Path) -> bool:
        return GENERATOR.sub(b"", (built_site / p).read_bytes()) == GENERATOR.sub(b"", (out / p).read_bytes())

    differ = [str(p) for p in sorted(ours) if not same(p)]
    assert not differ, f"ProperDocs builds these differently (beyond the generator tag): {differ[:10]}"
