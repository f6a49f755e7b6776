"""The site as a reader sees it, in headless Chromium driven by Playwright.

The browser comes from one setting, the CHROMIUM environment variable: a path to a
Chromium executable (default /usr/bin/chromium, which .ci/run installs with apt), or
``playwright`` for Playwright's own build (``python -m playwright install --with-deps
chromium``, as the GitHub workflow does). Skipped (with the reason) where the browser
is missing, except under CI, where it must run.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import re
import shutil
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tools.core import cache as build_cache
from tools.pages import parse as pages

from ..support.chromium import chromium_version
from ..support.failures import ARTIFACTS
from ..support.verdicts import LoadedFiles, note

pytestmark = pytest.mark.browser

PREFIX = "/detach-in-depth/"  # the path of site_url: the site is served under it
EXAMPLE = "internals/what-detach-does/"
SHOTS = ARTIFACTS / "screenshots"


GZIPPED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt"}  # what the host compresses


@pytest.fixture(scope="session")  # once per worker: xdist interleaves modules
def server(built_site):
    class Handler(SimpleHTTPRequestHandler):
        def translate_path(self, path):
            parsed = urlparse(path).path
            if parsed.startswith(PREFIX):
                parsed = "/" + parsed[len(PREFIX) :]
            else:
                parsed = "/__outside_site_path__"
            return super().translate_path(parsed)

        def log_message(self, *args):
            pass

        def do_GET(self):
            # Like the static host (GitHub Pages): text types go out gzip-compressed to a
            # browser that accepts it, so the bytes a test counts are what a phone gets.
            # Pagefind's index files and wasm come compressed by Pagefind already.
            file = Path(self.translate_path(self.path))
            if "gzip" not in self.headers.get("Accept-Encoding", "") or file.suffix not in GZIPPED:
                return super().do_GET()
            if not file.is_file():
                return self.send_error(404)
            body = gzip.compress(file.read_bytes(), mtime=0)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(file)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def send_error(self, code, message=None, explain=None):
            # Like the static host: a missing path gets the site's own 404 page.
            page = Path(self.directory) / "404.html"
            if code != 404 or not page.is_file():
                return super().send_error(code, message, explain)
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(built_site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}{PREFIX}"
    httpd.shutdown()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    pg = context.new_page()
    pg.foreign = []  # requests to any host but the local server
    pg.loaded = set()  # every local URL requested
    local = urlparse(server).netloc

    def on_request(request):
        url = urlparse(request.url)
        if url.netloc == local:
            pg.loaded.add(request.url)
        elif url.scheme in ("http", "https", "ws", "wss"):
            pg.foreign.append(request.url)

    pg.on("request", on_request)
    yield pg
    context.close()


class BrowserCheck:
    """A browser test remembered by the files it loaded (tests/support/verdicts.py):
    ``if check.reuse(): return``, then ``check.page("reader")`` for the pages it drives."""

    def __init__(self, request, built_site, extra_code: tuple[Path, ...] = ()):
        self.request, self.pages = request, []
        self.name = "test:" + request.node.nodeid.split("::", 1)[-1]
        self.verdicts = _verdicts("browser-test", built_site, extra_code)
        self.reused = False

    def reuse(self) -> bool:
        self.reused = self.verdicts.passed_before(self.name)
        note(self.request.node, "reused" if self.reused else "ran")
        return self.reused

    def page(self, fixture: str):
        pg = self.request.getfixturevalue(fixture)
        pg.loaded.clear()
        self.pages.append(pg)
        return pg

    def finish(self) -> None:
        report = getattr(self.request.node, "verdict_call_report", None)
        if self.reused or report is None or not report.passed:
            return
        urls = set().union(*(pg.loaded for pg in self.pages)) if self.pages else set()
        self.verdicts.passed(self.name, urls, page=False)


@pytest.fixture
def browser_check(request, built_site):
    check = BrowserCheck(request, built_site)
    yield check
    check.finish()


def _shot(pg, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _images_loaded(pg) -> list[str]:
    pg.wait_for_load_state("load")
    return pg.evaluate(
        "Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
    )


def test_home_pages(browser_check, server):
    if browser_check.reuse():
        return
    page = browser_check.page("page")
    page.goto(server)
    assert page.locator("html").get_attribute("lang").startswith("zh")
    assert "深度解析" in page.title()
    _shot(page, "home-zh")
    page.goto(server + "en/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert "in Depth" in page.title()
    _shot(page, "home-en")
    assert page.foreign == [], f"requests to other hosts: {page.foreign}"


def test_example_page_and_language_switch(browser_check, server):
    if browser_check.reuse():
        return
    page = browser_check.page("page")
    page.goto(server + EXAMPLE)
    assert page.locator("h1").first.inner_text().startswith("detach() 做了什么")
    assert _images_loaded(page) == []
    assert page.locator("img[src$='.zh.svg']").count() >= 1
    _shot(page, "example-zh")

    page.locator(".md-header__option .md-select").first.hover()
    page.locator("a.md-select__link[hreflang='en']").first.click()
    page.wait_for_url(server + "en/" + EXAMPLE)
    assert page.locator("h1").first.inner_text().startswith("What detach() does")
    assert _images_loaded(page) == []
    assert page.locator("img[src$='.en.svg']").count() >= 1
    _shot(page, "example-en")

    page.locator(".md-header__option .md-select").first.hover()
    page.locator("a.md-select__link[hreflang='zh']").first.click()
    page.wait_for_url(server + EXAMPLE)
    assert page.locator("h1").first.inner_text().startswith("detach() 做了什么")
    assert page.foreign == [], f"requests to other hosts: {page.foreign}"


# ---------------------------------------------------------------------------
# Every page, both languages, as a reader sees it (issue 11). One browser page is
# reused for all of them, so the whole sweep stays fast.

NARROW = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}
MIN_FIGURE_TEXT_PX = 11
FORBIDDEN = {
    "# verdict:": "an internal verdict marker in displayed code",
    "种子文章": "the internal name for the three posts (write 博文 A/B/C)",
    "\\<": "an escaped '<' shown literally",
}
RAW_EVIDENCE = re.compile(r"snippets/[\w./-]+\.py\s*:[\w-]+")
_SVG_VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) [\d.]+"')
_SVG_GLYPH_SCALE = re.compile(r"scale\(([\d.]+) -\1\)")  # matplotlib text as paths: size/100

# What a page reports about itself, measured in the browser.
_MEASURE = """() => {
  const MACHINERY = `MACHINERY_SELECTOR`;
  const article = document.querySelector("article") || document.body;
  const overflowing = [];
  for (const code of article.querySelectorAll("pre > code")) {
    // Output whose columns line up scrolls sideways on a phone, on purpose (site.css).
    if (innerWidth < 720 && code.closest(".output-aligned")) continue;
    const over = code.scrollWidth - code.clientWidth;
    if (code.clientWidth > 0 && over > 2) {  // 0: inside a closed <details>
      const title = code.closest(".highlight")?.querySelector(".filename")?.textContent || "";
      const plain = code.cloneNode(true);  // the code without its annotation notes
      plain.querySelectorAll(".md-annotation").forEach(n => n.remove());
      const line = plain.textContent.split("\\n").sort((a, b) => b.length - a.length)[0] || "";
      overflowing.push(`${title.trim() || "(untitled)"}: +${over}px `
                       + `longest line: ${line.slice(0, 90)}`);
    }
  }
  const figures = [...article.querySelectorAll("img")].map(img => {
    const cs = getComputedStyle(img);
    const inner = img.getBoundingClientRect().width
      - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const fig = img.closest("figure");
    return {src: img.getAttribute("src"), shown: img.currentSrc, width: inner,
            caption: fig?.querySelector("figcaption")?.innerText?.trim() || "",
            zoom: img.closest("a")?.getAttribute("href") || ""};
  });
  // Tables: a table is clipped when its scroll wrapper hides part of it or it runs
  // past the text column (a table inside a closed <details> or tab has no width).
  const column = article.getBoundingClientRect();
  const clipped = [];
  for (const table of article.querySelectorAll("table")) {
    if (!table.getClientRects().length || table.getBoundingClientRect().width === 0) continue;
    const wrap = table.closest(".md-typeset__scrollwrap") || table.parentElement;
    const over = Math.max(wrap.scrollWidth - wrap.clientWidth,
                          table.getBoundingClientRect().right - column.right);
    if (over > 1) {
      const head = (table.querySelector("th") || table).innerText.trim().slice(0, 40);
      clipped.push(`table "${head}": ${Math.round(over)} px hidden`);
    }
  }
  // Machinery: how much of the first screen the page's bookkeeping takes.
  const screen = innerHeight;
  let machinery = 0;
  const parts = [];
  for (const el of article.querySelectorAll(MACHINERY)) {
    if (el.parentElement.closest(MACHINERY)) continue;
    const r = el.getBoundingClientRect();
    const seen = Math.max(0, Math.min(r.bottom, screen) - Math.max(r.top, 0));
    if (seen > 0) { machinery += seen; parts.push(`${el.className}: ${Math.round(seen)} px`); }
  }
  return {overflowing, figures, clipped, machinery: machinery / screen, machineryParts: parts,
          text: article.innerText};
}"""


# What counts as machinery on the first screen: the line under the title, version
# notes, the PyTorch test citations and the FAQ's "as asked" boxes (issue 23).
MACHINERY = ", ".join(
    [
        ".page-meta",
        ".page-downloads",
        "p.torch-versions",
        "p.pytorch-pins",
        ".admonition.quote",
        "details.quote",
        "details.other-releases",
    ]
)
MAX_MACHINERY = 0.10  # of the first screen at 390 px
_MEASURE = _MEASURE.replace("MACHINERY_SELECTOR", MACHINERY)


def _url(lang: str, page: Path) -> str:
    """The site path of a page: ``a/b.md`` -> ``a/b/``, ``a/index.md`` -> ``a/``."""
    path = page.with_suffix("").as_posix()
    path = "" if path == "index" else path.removesuffix("/index") + "/"
    return ("" if lang == "zh" else f"{lang}/") + path


# Every page of both languages (test_build checks each is built).
SITE_PAGES = [_url(lang, page) for lang in pages.LANGS for page in pages.pages(lang)]


def _figure_text_px(svg: Path, shown_width: float) -> float:
    text = svg.read_text(encoding="utf-8")
    view = _SVG_VIEWBOX.search(text)
    scales = [float(s) for s in _SVG_GLYPH_SCALE.findall(text)]
    if not view or not scales:
        return float("inf")  # no outlined text to measure
    return min(scales) * 100 * shown_width / float(view.group(1))


def _watched_page(browser, server):
    """A page that records every console error and failed request in ``pg.problems``."""
    context = browser.new_context(viewport=WIDE, locale="zh-CN")
    pg = context.new_page()
    pg.problems = []  # (url, what)
    pg.loaded = set()  # every local URL requested (routes disable the HTTP cache)
    local = urlparse(server).netloc

    def on_console(msg):
        if msg.type == "error":
            pg.problems.append((pg.url, f"console error: {msg.text}"))

    def on_failed(request):
        if "ERR_ABORTED" not in (request.failure or ""):  # navigating away, not a failure
            pg.problems.append((pg.url, f"request failed: {request.url} ({request.failure})"))

    def on_response(response):
        if response.status >= 400:
            pg.problems.append((pg.url, f"HTTP {response.status}: {response.url}"))

    def on_request(request):
        url = urlparse(request.url)
        if url.netloc == local:
            pg.loaded.add(request.url)
        elif url.scheme in ("http", "https", "ws", "wss"):
            pg.problems.append((pg.url, f"request to another host: {request.url}"))

    pg.on("console", on_console)
    pg.on("pageerror", lambda err: pg.problems.append((pg.url, f"page error: {err}")))
    pg.on("requestfailed", on_failed)
    pg.on("response", on_response)
    pg.on("request", on_request)
    return context, pg


@pytest.fixture(scope="session")  # once per worker: xdist interleaves modules
def reader(browser, server):
    """One page for the tests of search, the switcher and the 404 page."""
    context, pg = _watched_page(browser, server)
    yield pg
    context.close()


SEARCH_INDEX = "search/search_index.json"


def _empty_index(site: Path) -> str:
    index = json.loads((site / SEARCH_INDEX).read_text(encoding="utf-8"))
    return json.dumps({"config": index["config"], "docs": []})


# The sweep's page: axe-core is loaded with every page, and Material's search worker
# gets an empty index (it would otherwise download and index the whole site on every
# page load; the search tests above use the real one).
@pytest.fixture(scope="session")  # once per worker: xdist interleaves modules
def sweeper(browser, server, built_site):
    import axe_playwright_python

    empty = _empty_index(built_site)
    context, pg = _watched_page(browser, server)
    context.add_init_script(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    context.route(
        f"**/{SEARCH_INDEX}",
        lambda route: route.fulfill(status=200, content_type="application/json", body=empty),
    )
    yield pg
    context.close()


def _fonts() -> str:
    """The system fonts Chromium can fall back to (they change the layout)."""
    fc_list = shutil.which("fc-list")
    if not fc_list:
        return "no fc-list"
    out = subprocess.run([fc_list, "--format", "%{file} %{fontversion}\n"], capture_output=True, text=True)
    return "\n".join(sorted(out.stdout.splitlines()))


CHECK_CODE = [Path(__file__).resolve(), Path(__file__).resolve().parents[1] / "support" / "chromium.py"]


def _verdicts(check: str, built_site, extra_code: tuple[Path, ...] = ()) -> LoadedFiles:
    import axe_playwright_python

    axe = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_bytes()
    environment = (
        chromium_version(),
        axe,
        build_cache.version("playwright", "axe-playwright-python"),
        _empty_index(built_site),
        _fonts(),
    )
    return LoadedFiles(
        check,
        built_site,
        PREFIX,
        environment,
        replaced=frozenset([SEARCH_INDEX]),
        code=[*CHECK_CODE, *extra_code],
    )


# A page whose check passed with exactly the files it loads now is not loaded again
# (tests/support/verdicts.py says what the key holds; `make test FRESH=1` loads them all).
@pytest.fixture(scope="session")
def sweep_verdicts(built_site) -> LoadedFiles:
    return _verdicts("sweep", built_site)


@pytest.fixture(scope="session")
def colour_verdicts(built_site) -> LoadedFiles:
    return _verdicts("colours", built_site)


def _checked_before(verdicts: LoadedFiles, rel: str, request) -> bool:
    before = verdicts.passed_before(rel)
    note(request.node, "reused" if before else "ran")
    return before


# axe-core: every WCAG 2.1 A/AA rule on every page, except the two colour rules, which
# depend on the theme's CSS rather than the page and cost 1-3 s a page; they run on a
# sample that shows every component the pages use (tables, admonitions, code,
# annotations, tabs, figures, the API reference).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
CONTRAST_PAGES = [
    "",
    "en/",
    "cheat-sheet/",
    "pitfalls/dot-data/",
    "scenarios/gan/",
    "en/reference/api/",
]


def _axe(pg, rel: str, options: dict) -> list[str]:
    found = []
    for v in pg.evaluate("options => axe.run(document, options)", options)["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = ", ".join(str(n["target"]) for n in v["nodes"][:3])
            found.append(
                f"/{rel}: {v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}; e.g. {targets}"
            )
    return found


def _figure_problems(rel: str, figures: list[dict], site: Path) -> list[str]:
    found = []
    for fig in figures:
        if not fig["src"].endswith(".svg"):
            continue
        name = fig["src"].rsplit("/", 1)[-1]
        if not fig["caption"]:
            found.append(f"/{rel}: {name} has no caption (figure + figcaption)")
        if not fig["zoom"].endswith(".svg"):
            found.append(f"/{rel}: {name} does not open full size on click")
        # the layout shown: a phone gets the figure's phone layout (<picture>) if it has one
        shown = urlparse(fig.get("shown") or "").path
        svg = site / shown[len(PREFIX) :] if shown.startswith(PREFIX) else site / rel / fig["src"]
        px = _figure_text_px(svg.resolve(), fig["width"])
        if px < MIN_FIGURE_TEXT_PX:
            found.append(
                f"/{rel}: {name}: smallest text {px:.1f} px at {fig['width']:.0f} px wide "
                f"(needs {MIN_FIGURE_TEXT_PX}); enlarge the fonts in its script under figures/"
            )
    return found


def _leaks(rel: str, text: str) -> list[str]:
    found = [f"/{rel}: shows {needle!r}: {why}" for needle, why in FORBIDDEN.items() if needle in text]
    found += [
        f"/{rel}: shows raw evidence text {hit!r}: link the section by its title"
        for hit in RAW_EVIDENCE.findall(text)
    ]
    return found


@pytest.mark.parametrize("rel", SITE_PAGES, ids=lambda rel: rel or "zh-home")
def test_page_as_a_reader_sees_it(request, sweep_verdicts, server, built_site, rel):
    """No clipped code, output or table at 1280 or 390 px, captioned figures legible at
    both widths, machinery at most 10 % of the first screen at 390 px, no bookkeeping
    text, no console errors or failed requests, no serious or critical axe-core
    violations."""
    if _checked_before(sweep_verdicts, rel, request):
        return
    sweeper = request.getfixturevalue("sweeper")
    sweeper.problems.clear()
    sweeper.loaded.clear()
    sweeper.set_viewport_size(WIDE)
    sweeper.goto(server + rel, wait_until="load")
    m = sweeper.evaluate(_MEASURE)
    report = {
        "code or output wider than the text column at 1280 px": m["overflowing"],
        "figures": _figure_problems(rel, m["figures"], built_site),
        "bookkeeping shown to readers": _leaks(rel, m["text"]),
        "axe-core serious/critical violations": _axe(
            sweeper,
            rel,
            {
                "resultTypes": ["violations"],
                "runOnly": {"type": "tag", "values": AXE_TAGS},
                "rules": {rule: {"enabled": False} for rule in COLOUR_RULES},
            },
        ),
    }
    report["tables clipped at 1280 px"] = m["clipped"]
    sweeper.set_viewport_size(NARROW)
    sweeper.wait_for_timeout(250)  # site.js re-fits tables after a resize
    n = sweeper.evaluate(_MEASURE)

    def small_labels(n):
        return [f for f in _figure_problems(rel, n["figures"], built_site) if "smallest text" in f]

    if n["overflowing"] or n["clipped"] or n["machinery"] > MAX_MACHINERY or small_labels(n):
        # a resize can leave stale layout behind (or a <picture> still showing its wide
        # source): confirm as a phone loads it
        sweeper.goto(server + rel, wait_until="load")
        n = sweeper.evaluate(_MEASURE)
    sweeper.set_viewport_size(WIDE)
    report["code or output not wrapped at 390 px"] = n["overflowing"]
    report["tables clipped at 390 px"] = n["clipped"]
    report["figure labels under 11 px at 390 px"] = small_labels(n)
    if n["machinery"] > MAX_MACHINERY:
        report[f"machinery over {MAX_MACHINERY:.0%} of the first screen at 390 px"] = [
            f"{n['machinery']:.0%}: " + "; ".join(n["machineryParts"])
        ]
    report["console errors and failed requests"] = [what for _, what in sweeper.problems]
    bad = {k: v for k, v in report.items() if v}
    assert not bad, f"/{rel}:\n" + "\n".join(
        f"{k} ({len(v)}):\n  " + "\n  ".join(v[:25]) for k, v in bad.items()
    )
    sweep_verdicts.passed(rel, sweeper.loaded)


@pytest.mark.parametrize("rel", CONTRAST_PAGES, ids=lambda rel: rel or "zh-home")
def test_colours(request, colour_verdicts, server, rel):
    if _checked_before(colour_verdicts, rel, request):
        return
    sweeper = request.getfixturevalue("sweeper")
    sweeper.loaded.clear()
    sweeper.goto(server + rel, wait_until="load")
    only = {"type": "rule", "values": COLOUR_RULES}
    found = _axe(sweeper, rel, {"resultTypes": ["violations"], "runOnly": only})
    assert not found, "axe-core colour violations:\n" + "\n".join(found)
    colour_verdicts.passed(rel, sweeper.loaded)


def test_language_switch_keeps_the_section(browser_check, server):
    if browser_check.reuse():
        return
    reader = browser_check.page("reader")
    reader.goto(server + "scenarios/gan/#seed-claim")
    reader.locator(".md-header__option .md-select").first.hover()
    reader.locator("a.md-select__link[hreflang='en']").first.click()
    reader.wait_for_url(server + "en/scenarios/gan/#seed-claim")


def test_localized_404(browser_check, server):
    if browser_check.reuse():
        return
    reader = browser_check.page("reader")
    reader.goto(server + "no-such-page/")
    assert "页面不存在" in reader.locator("h1").first.inner_text()
    assert "Page not found" in reader.locator("article").inner_text()
    reader.problems[:] = [p for p in reader.problems if "no-such-page" not in p[0] + p[1]]


SCREENSHOT_PAGES = {
    "home": "",
    "fact-check": "fact-check/",
    "pitfall": "pitfalls/inplace-after-detach/",
    "api": "reference/api/",
}


@pytest.mark.skipif(not os.environ.get("SCREENSHOTS"), reason="for people, not a check: make screenshots")
@pytest.mark.parametrize("name", SCREENSHOT_PAGES)
def test_reader_screenshots(sweeper, server, name):
    """First screen of the key pages at 1280 and 390 px in both languages, into
    test-artifacts/screenshots/ (``make screenshots``)."""
    reader = sweeper
    rel = SCREENSHOT_PAGES[name]
    for lang, prefix in (("zh", ""), ("en", "en/")):
        for label, size in (("1280", WIDE), ("390", NARROW)):
            reader.set_viewport_size(size)
            reader.goto(server + prefix + rel, wait_until="load")
            SHOTS.mkdir(parents=True, exist_ok=True)
            reader.screenshot(path=str(SHOTS / f"{name}-{lang}-{label}.png"))
    reader.set_viewport_size(WIDE)


# Search (issue 32): every row of data/search-queries.yml and of the error chapter's
# data/search-queries-errors.yml, in its language, lands on the expected page first, and
# on the expected heading when one is given. The rows are run through the function the
# header's box calls (docs/assets/javascripts/search.js), all of one language in one
# page.evaluate; two UI checks type into the box itself.
QUERIES_FILES = [
    Path(__file__).resolve().parents[2] / "data" / name
    for name in ("search-queries.yml", "search-queries-errors.yml")
]
# rows not yet ranked first: reported, and refused once they are found first again
SEARCH_MISSES = pages.ROOT / "data" / "search-misses.yml"
FIRST_RESULTS = """async (queries) => {
  const out = [];
  for (const q of queries) {
    const items = await window.siteSearch(q);
    const first = items[0] || [];
    const page = first.find(d => !d.location.includes("#"));
    out.push([page ? page.location : "", first[0] ? first[0].location : ""]);
  }
  return out;
}"""


def _site_path(url: str, lang: str) -> str:
    parsed = urlparse(url)
    path = parsed.path.removeprefix(PREFIX).removeprefix("/")
    path = path.removeprefix("en/") if lang == "en" else path
    return path + (f"#{parsed.fragment}" if parsed.fragment else "")


def _expected(expect: str) -> tuple[str, str]:
    page, _, anchor = expect.partition("#")
    return _url("zh", Path(page)), anchor


@pytest.fixture
def search_check(request, built_site):
    check = BrowserCheck(request, built_site, extra_code=(*QUERIES_FILES, SEARCH_MISSES))
    yield check
    check.finish()


def test_every_query_finds_its_page_first(search_check, server):
    """Each row's first result is its page (and heading, where the row names one), in
    the row's language only."""
    if search_check.reuse():
        return
    from tools.core import data

    rows = [
        dict(row, file=path.name)
        for path in QUERIES_FILES
        for row in data.load(path, "search-queries.schema.json").data
    ]
    misses_doc = data.load(SEARCH_MISSES, "search-misses.schema.json", entries="misses")
    misses = {(m["lang"], m["query"]) for m in misses_doc.data["misses"]}
    reader = search_check.page("reader")
    wrong, found_again = [], []
    for lang in pages.LANGS:
        mine = [r for r in rows if r["lang"] == lang]
        reader.goto(server + ("" if lang == "zh" else f"{lang}/"), wait_until="load")
        got = reader.evaluate(FIRST_RESULTS, [r["query"] for r in mine])
        for row, (page_url, first_url) in zip(mine, got, strict=True):
            page, anchor = _expected(row["expect"])
            shown = _site_path(page_url, lang)
            known = (lang, row["query"]) in misses
            if (lang == "en") != ("/en/" in urlparse(page_url).path):
                wrong.append(f"[{lang}] {row['query']!r}: a result in the other language: {page_url}")
            elif shown != page or (anchor and _site_path(first_url, lang) != f"{page}#{anchor}"):
                if not known:
                    wrong.append(
                        f"[{lang}] {row['query']!r}: first {_site_path(first_url, lang) or 'nothing'}, "
                        f"expected {row['expect']} ({row['file']})"
                    )
            elif known:
                found_again.append(f"[{lang}] {row['query']!r}")
    assert not wrong, f"{len(wrong)} of {len(rows)} queries:\n" + "\n".join(wrong)
    assert not found_again, (
        "data/search-misses.yml lists rows the search now finds first: remove them\n" + "\n".join(found_again)
    )
    print(f"search: {len(rows) - len(misses)} of {len(rows)} first, {len(misses)} in {SEARCH_MISSES.name}")


def _type_query(pg, query: str, typed: bool = False) -> list[str]:
    pg.evaluate("document.getElementById('__search').click()")  # the header's search button
    box = pg.locator("input.md-search__input")
    if typed:  # letter by letter, at a brisk reader's pace
        box.press_sequentially(query, delay=120)
    else:  # pasted: an input event and no key (a phone's long-press paste)
        box.fill(query)
    results = pg.locator(".md-search-result__item a")
    results.first.wait_for(timeout=15000)
    return [results.nth(i).get_attribute("href") for i in range(results.count())]


@pytest.mark.parametrize(("width", "typed"), [(1280, False), (390, False), (390, True)])
def test_header_search_box_answers_in_its_language(search_check, server, browser, width, typed):
    """The box in Material's header, filled in (pasted) or typed letter by letter, at a
    desktop's and a phone's width, in both languages: results of that language, the
    expected page first, the heading's search words highlighted on the page it opens.
    A phone's first search fetches at most 150 KB, all of it from the site."""
    if search_check.reuse():
        return
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 720 else 900})
    pg = context.new_page()
    pg.loaded = set()
    sizes, foreign = [], []
    local = urlparse(server).netloc

    def finished(request):
        if urlparse(request.url).netloc != local:
            foreign.append(request.url)
            return
        pg.loaded.add(request.url)
        s = request.sizes()
        sizes.append(s["responseBodySize"] + s["responseHeadersSize"])

    pg.on("requestfinished", finished)
    search_check.pages.append(pg)
    try:
        for lang, query, expected in (
            ("zh", "detach 和 clone 区别", "faq/detach-and-data/#detach-vs-clone"),
            ("en", "inference_mode vs no_grad", "faq/grad-modes/#inference-mode-vs-no-grad"),
        ):
            pg.goto(server + ("" if lang == "zh" else "en/"), wait_until="load")
            pg.wait_for_timeout(300)
            sizes.clear()
            hrefs = _type_query(pg, query, typed)
            first = [_site_path(h, lang) for h in hrefs[:2]]
            assert expected in first, f"[{lang}] {query!r} at {width} px: first results {first}"
            assert all(("/en/" in h) == (lang == "en") for h in hrefs), f"[{lang}] other language: {hrefs}"
            if width < 720:
                pg.wait_for_timeout(300)
                assert sum(sizes) <= 150_000, (
                    f"[{lang}] first search at {width} px ({'typed' if typed else 'pasted'}) "
                    f"fetched {sum(sizes)} bytes"
                )
            target = next(h for h in hrefs if _site_path(h, lang) == expected)  # with Material's ?h=
            pg.goto(target)
            marks = pg.locator("article mark")
            marks.first.wait_for(timeout=10000)
        assert foreign == [], f"requests to other hosts: {foreign}"
    finally:
        context.close()


def test_search_index_leaves_machinery_out(built_site):
    """One Pagefind bundle per language (pagefind/<lang>/); no machinery in the indexed
    text (the version line, snippet paths, the FAQ's "as asked" mirrors), and recorded
    outputs in it."""
    import gzip

    texts = []
    for lang in pages.LANGS:
        bundle = built_site / "pagefind" / lang
        entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
        assert sum(i["page_count"] for i in entry["languages"].values()) > 100, (lang, entry)
        for fragment in sorted((bundle / "fragment").iterdir()):
            record = json.loads(gzip.decompress(fragment.read_bytes())[len(b"pagefind_dcd") :])
            texts.append(record["content"])
    text = "\n".join(texts)
    for needle in ("本页代码已在", "Code on this page checked with", "提问原文", "As asked"):
        assert needle not in text, f"{needle!r} is in the search index"
    assert "Can't call numpy() on Tensor that requires grad" in text, "recorded outputs are not indexed"


@pytest.fixture
def phone(browser, server):
    """A fresh page at a phone's size (390 x 844), closed after the test."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    pg.loaded = set()
    local = urlparse(server).netloc
    pg.on("request", lambda r: pg.loaded.add(r.url) if urlparse(r.url).netloc == local else None)
    yield pg
    context.close()


def test_phone_annotation_markers_show_their_icon(browser_check, server):
    """Code wraps with a hanging indent on phones; text-indent is inherited, and once
    let the marker's icon sit 4ch to its left, clipped away (reader review, major)."""
    if browser_check.reuse():
        return
    pg = browser_check.page("phone")
    pg.goto(server + "en/faq/in-place/")
    pg.wait_for_selector(".md-annotation__index")
    indents = pg.evaluate(
        "[...document.querySelectorAll('pre .md-annotation__index')].map("
        "a => [getComputedStyle(a).textIndent, getComputedStyle(a, '::after').left])"
    )
    assert indents and all(i == ["0px", "0px"] for i in indents), indents


def test_cards_survive_a_resize(browser_check, server):
    """A carded table stays a card table after the phone's toolbar hides (height only)
    and after a rotation and back (reader review, major)."""
    if browser_check.reuse():
        return
    pg = browser_check.page("phone")
    pg.goto(server + "cheat-sheet/")
    pg.wait_for_load_state("load")
    cards = (
        "[...document.querySelectorAll('.md-typeset table')]"
        ".map(t => t.classList.contains('site-table--cards'))"
    )
    first = pg.evaluate(cards)
    seen = []
    for width, height in ((390, 700), (844, 390), (390, 844)):
        pg.set_viewport_size({"width": width, "height": height})
        pg.wait_for_timeout(400)
        seen.append(pg.evaluate(cards))
    assert any(first), "no table of the cheat sheet is shown as cards at 390 px"
    assert seen[0] == first and seen[2] == first, (first, seen)


def test_zh_header_title_breaks_between_words(browser_check, server):
    """The page title in a phone's header wraps where the heading does (reader review)."""
    if browser_check.reuse():
        return
    pg = browser_check.page("phone")
    pg.goto(server + "fundamentals/saved-tensors/")
    pg.wait_for_load_state("load")
    topic = pg.evaluate(
        "document.querySelector('.md-header__topic + .md-header__topic > .md-ellipsis').innerHTML"
    )
    assert "<wbr>" in topic, topic


def test_phone_code_hangs_deeper_than_its_indent_and_wide_outputs_say_they_scroll(browser_check, server):
    """A wrapped line continues 4ch deeper than its own indent, so it never lines up
    with the next statement; an aligned output wider than the screen shows a cue
    (reader review, minors 3 and 4)."""
    if browser_check.reuse():
        return
    pg = browser_check.page("phone")
    pg.goto(server + "internals/what-detach-does/")
    pg.wait_for_load_state("load")
    hangs = pg.evaluate(
        "[...document.querySelectorAll('pre > code > span[id^=\"__span\"]')]"
        ".filter(s => /^ +\\S/.test(s.textContent)).slice(0, 20)"
        ".map(s => [s.textContent.match(/^ */)[0].length, getComputedStyle(s).paddingLeft,"
        " getComputedStyle(s).fontSize])"
    )
    assert hangs, "no indented code line on the page"
    for indent, padding, size in hangs:
        ch = float(padding[:-2]) / (min(indent, 8) + 4)
        assert 0.4 * float(size[:-2]) < ch < 0.75 * float(size[:-2]), (indent, padding, size)
    # the benchmark tables are the widest aligned outputs left (70 characters)
    pg.goto(server + "benchmarks/detach-vs-clone/")
    pg.wait_for_load_state("load")
    wide = pg.evaluate("document.querySelectorAll('.output-aligned.is-wide').length")
    assert wide > 0, "no aligned output wider than the screen carries the scroll cue"


# ---------------------------------------------------------------- what a phone and a desktop show (issue 32)
# Code in any context: tables, admonitions, cards, badges (Material's 0.85em made it 10.9 px there).
_SMALL_CODE = """() => {
  const seen = {table: 0, admonition: 0}, small = [];
  for (const c of document.querySelectorAll('article code, article .outcome, article .verdict')) {
    if (!c.getClientRects().length) continue;
    if (c.closest('td')) seen.table++;
    if (c.closest('.admonition, details')) seen.admonition++;
    const size = parseFloat(getComputedStyle(c).fontSize);
    if (size < 11.95) small.push([size, c.textContent.slice(0, 30)]);
  }
  return {seen, small};
}"""


def test_code_is_at_least_12px_in_tables_admonitions_and_badges(browser_check, server):
    """Code in cheat-sheet cells, symptom boxes and the verdict/outcome badges was
    10.9 px (reader review D10): at least 12 px at both widths, in both languages."""
    if browser_check.reuse():
        return
    pg = browser_check.page("page")
    for width in (1280, 390):
        pg.set_viewport_size({"width": width, "height": 844})
        for path in ("cheat-sheet/", "en/internals/comparison/", "fact-check/", "en/pitfalls/dot-data/"):
            pg.goto(server + path)
            pg.wait_for_load_state("load")
            found = pg.evaluate(_SMALL_CODE)
            assert not found["small"], (width, path, found["small"][:5])
            assert found["seen"]["table"] or found["seen"]["admonition"], (width, path, "no code measured")


_FIGURES = """() => [...document.querySelectorAll('figure.site-figure')].map(f => {
  const img = f.querySelector('img'), a = f.querySelector('a.figure-zoom');
  const r = img.getBoundingClientRect();
  return {src: img.currentSrc.split('/').pop(), picture: !!f.querySelector('picture'),
          right: r.right, hidden: a.scrollWidth - a.clientWidth, width: innerWidth};
})"""


def _pages_with_figures() -> dict[str, int]:
    """Every page that shows a figure, in both languages: its path under the site and
    the number of figures its Markdown embeds."""
    from tools.core.repo import DOCS

    pages = {}
    for lang, prefix in (("zh", ""), ("en", "en/")):
        for md in sorted((DOCS / lang).rglob("*.md")):
            count = md.read_text(encoding="utf-8").count("assets/figures/")
            if count:
                rel = md.relative_to(DOCS / lang).with_suffix("")
                rel = rel.parent if rel.name == "index" else rel
                pages[f"{prefix}{rel.as_posix()}/".replace("./", "")] = count
    return pages


def test_every_figure_shows_its_phone_layout_whole(browser_check, server):
    """At 390 px every figure on every page shows its phone layout, nothing off screen
    and nothing to scroll sideways (reader review D11: the detach half of Fig. 1 was off
    screen; issue 32 N1: the GAN figure's D column); at 1280 the wide one."""
    if browser_check.reuse():
        return
    pg = browser_check.page("page")
    pages = _pages_with_figures()
    assert len(pages) >= 20 and sum(pages.values()) >= 30, pages  # 11 pages, 15 figures, x 2
    for width in (390, 1280):
        pg.set_viewport_size({"width": width, "height": 844})
        for path, count in pages.items():
            pg.goto(server + path)
            assert not _images_loaded(pg), path
            figures = pg.evaluate(_FIGURES)
            assert len(figures) == count, (path, figures)
            for f in figures:
                assert f["picture"], (path, f["src"], "no phone layout (draw(lang, narrow=False))")
                assert f["src"].endswith(".svg") and ("-narrow." in f["src"]) == (width == 390), (path, f)
                if width == 390:
                    assert f["right"] <= f["width"] and f["hidden"] <= 1, (path, f)


NAV_LIMIT_PX = 1800  # two screens of a 1280 x 900 desktop


def test_desktop_sidebar_shows_the_current_section_in_under_two_screens(browser_check, server):
    """About 100 pages per language: the sidebar at 1280 shows the sections and the
    current one open, not every page (reader review D24: 3 screens); the current page's
    entry is in view, not under the sidebar's sticky title (D22)."""
    if browser_check.reuse():
        return
    pg = browser_check.page("page")
    paths = ("faq/grad-modes/", "en/errors/backward/", "apis/tensor/", "en/faq/partial-gradients/")
    for path in paths:
        pg.goto(server + path)
        pg.wait_for_load_state("load")
        pg.wait_for_timeout(300)
        nav = pg.evaluate(
            """() => {
  const wrap = document.querySelector('.md-sidebar--primary .md-sidebar__scrollwrap');
  const title = wrap.querySelector('.md-nav--primary > .md-nav__title');
  const active = [...wrap.querySelectorAll('a.md-nav__link--active[href]')].filter(a => a.clientHeight).pop();
  const t = title.getBoundingClientRect(), w = wrap.getBoundingClientRect();
  const a = active ? active.getBoundingClientRect() : null;
  const cut = [...wrap.querySelectorAll('.md-nav--primary .md-nav__link')].filter(e => {
    const r = e.getBoundingClientRect();
    return getComputedStyle(e).visibility === 'visible' && r.top < t.bottom - 1 && r.bottom > t.bottom + 1;
  }).map(e => e.textContent.trim());
  return {height: wrap.querySelector('.md-nav--primary').scrollHeight,
          active: a && [a.top, a.bottom], top: t.bottom, bottom: w.bottom, cut};
}"""
        )
        assert nav["height"] <= NAV_LIMIT_PX, (path, nav)
        assert nav["active"], (path, "the current page has no visible entry")
        assert nav["active"][0] >= nav["top"] - 1 and nav["active"][1] <= nav["bottom"] + 1, (path, nav)
        assert not nav["cut"], (path, "entries half under the sidebar's title", nav["cut"])


def test_meta_line_and_code_titles_on_a_phone(browser_check, server):
    """390 px: "2.4–2.15" is never split (D9), the zh meta line breaks only between
    words (D8), and no code-block title runs under the copy button (D12)."""
    if browser_check.reuse():
        return
    pg = browser_check.page("phone")
    for path in ("internals/what-detach-does/", "en/internals/what-detach-does/", "en/faq/grad-modes/"):
        pg.goto(server + path)
        pg.wait_for_load_state("load")
        meta = pg.evaluate(
            """() => { const v = document.querySelector('.page-meta__versions');
  const r = document.createRange(); r.selectNodeContents(v.querySelector('.nowrap'));
  return {rangeLines: new Set([...r.getClientRects()].map(x => Math.round(x.top))).size,
          wordBreak: getComputedStyle(v).wordBreak}; }"""
        )
        assert meta["rangeLines"] == 1, (path, meta)
        if not path.startswith("en/"):
            assert meta["wordBreak"] == "keep-all", (path, meta)
        under = pg.evaluate(
            """() => [...document.querySelectorAll('.highlight > .filename')].filter(t => {
  const nav = t.parentElement.querySelector('.md-code__nav');
  if (!nav || !t.getClientRects().length) return false;
  const b = nav.getBoundingClientRect(), r = document.createRange(); r.selectNodeContents(t);
  return [...r.getClientRects()].some(x =>
    x.right > b.left && x.left < b.right && x.bottom > b.top && x.top < b.bottom);
}).map(t => t.textContent.trim())"""
        )
        assert not under, (path, under)
