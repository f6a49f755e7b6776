"""The memory of passing browser checks (tests/support/browser_verdicts.py) forgets on any change."""

from __future__ import annotations

import pytest

from ..support.browser_verdicts import Verdicts

PREFIX = "/site/"
PAGE = "a/"
LOADED = {
    f"http://127.0.0.1:1{PREFIX}a/",
    f"http://127.0.0.1:1{PREFIX}style.css",
    f"http://127.0.0.1:1{PREFIX}index.json",
}


@pytest.fixture
def site(tmp_path, isolated_build_cache):
    root = tmp_path / "site"
    (root / "a").mkdir(parents=True)
    (root / "a" / "index.html").write_text("<p>page</p>")
    (root / "style.css").write_text("p {}")
    (root / "index.json").write_text("{}")
    return root


def _verdicts(site, environment=("chromium 1",)):
    return Verdicts("sweep", site, PREFIX, environment, replaced=frozenset(["index.json"]))


def test_a_pass_is_remembered_for_the_same_files(site):
    assert not _verdicts(site).passed_before(PAGE)
    _verdicts(site).passed(PAGE, LOADED)
    assert _verdicts(site).passed_before(PAGE)


@pytest.mark.parametrize("change", ["page", "style", "gone", "browser", "bypass"])
def test_any_change_of_an_input_forgets_it(site, monkeypatch, change):
    _verdicts(site).passed(PAGE, LOADED)
    environment = ("chromium 1",)
    if change == "page":
        (site / "a" / "index.html").write_text("<p>page, edited</p>")
    elif change == "style":
        (site / "style.css").write_text("p { width: 2000px }")
    elif change == "gone":
        (site / "style.css").unlink()
    elif change == "browser":
        environment = ("chromium 2",)
    else:
        monkeypatch.setenv("BUILD_CACHE_BYPASS", "browser")
    assert not _verdicts(site, environment).passed_before(PAGE)


def test_a_file_the_check_answers_itself_is_not_an_input_in_any_language(site):
    (site / "en").mkdir()
    (site / "en" / "index.json").write_text("{}")
    _verdicts(site).passed(PAGE, LOADED | {f"http://127.0.0.1:1{PREFIX}en/index.json"})
    (site / "index.json").write_text('{"docs": ["new"]}')
    (site / "en" / "index.json").write_text('{"docs": ["new"]}')
    assert _verdicts(site).passed_before(PAGE)


def test_nothing_is_remembered_unless_the_page_itself_was_loaded(site):
    _verdicts(site).passed(PAGE, {f"http://127.0.0.1:1{PREFIX}style.css"})
    assert not _verdicts(site).passed_before(PAGE)
