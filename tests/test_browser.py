"""The site as a reader sees it, in headless Chromium driven by Playwright.

The browser comes from one setting, the CHROMIUM environment variable: a path to a
Chromium executable (default /usr/bin/chromium, which .ci/run installs with apt), or
``playwright`` for Playwright's own build (``python -m playwright install --with-deps
chromium``, as the GitHub workflow does). Skipped (with the reason) where the browser
is missing, except under CI, where it must run.
"""

from __future__ import annotations

import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import pytest

from .conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("site")]

CHROMIUM = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
MANAGED = CHROMIUM == "playwright"  # Playwright's own Chromium build
PREFIX = "/detach-in-depth/"  # the path of site_url: the site is served under it
EXAMPLE = "internals/what-detach-does/"
SHOTS = ARTIFACTS / "screenshots"


def _need_chromium():
    if MANAGED or Path(CHROMIUM).is_file():
        return
    how = (
        f"no Chromium at {CHROMIUM}: install it (apt-get install chromium), point CHROMIUM at "
        "a Chromium executable, or set CHROMIUM=playwright after "
        "`python -m playwright install --with-deps chromium`"
    )
    if os.environ.get("CI"):
        pytest.fail(f"Browser tests must run under CI, but {how}", pytrace=False)
    pytest.skip(how)


@pytest.fixture(scope="module")
def server(built_site):
    class Handler(SimpleHTTPRequestHandler):
        def translate_path(self, path):
            parsed = urlparse(path).path
            if parsed.startswith(PREFIX):
                parsed = "/" + parsed[len(PREFIX):]
            else:
                parsed = "/__outside_site_path__"
            return super().translate_path(parsed)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(built_site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}{PREFIX}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=None if MANAGED else CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic",
            ],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    pg = context.new_page()
    pg.foreign = []  # requests to any host but the local server
    local = urlparse(server).netloc

    def on_request(request):
        url = urlparse(request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.netloc != local:
            pg.foreign.append(request.url)

    pg.on("request", on_request)
    yield pg
    context.close()


def _shot(pg, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _images_loaded(pg) -> list[str]:
    pg.wait_for_load_state("load")
    return pg.evaluate(
        "Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
    )


def test_home_pages(page, server):
    page.goto(server)
    assert page.locator("html").get_attribute("lang").startswith("zh")
    assert "深度解析" in page.title()
    _shot(page, "home-zh")
    page.goto(server + "en/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert "in Depth" in page.title()
    _shot(page, "home-en")
    assert page.foreign == [], f"requests to other hosts: {page.foreign}"


def test_example_page_and_language_switch(page, server):
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


def test_chinese_search_finds_the_example_page(page, server):
    page.goto(server)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    box.fill("版本计数器")
    box.press("End")  # Material searches on key events, not on fill() alone
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=15000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    _shot(page, "search-zh")
    assert any("internals/what-detach-does" in h for h in hrefs), hrefs
    assert page.foreign == [], f"requests to other hosts: {page.foreign}"
