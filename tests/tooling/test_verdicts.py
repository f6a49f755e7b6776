"""Remembered passes (tests/support/verdicts.py) are forgotten on any change of an input."""

from __future__ import annotations

import pytest

from tools.core import cache as build_cache

from ..support import verdicts
from ..support.verdicts import LoadedFiles, Verdict

# What these tests read (tests/support/verdicts.py: a test is reused while they are unchanged)
KEYED_ON = ("tools",)

PREFIX = "/site/"
PAGE = "a/"
LOADED = {
    f"http://127.0.0.1:1{PREFIX}a/",
    f"http://127.0.0.1:1{PREFIX}style.css",
    f"http://127.0.0.1:1{PREFIX}index.json",
}


# ----------------------------------------------------------------- inputs known in advance
@pytest.fixture(autouse=True)
def forget_digests(monkeypatch):
    monkeypatch.setattr(verdicts, "_digests", {})  # two writes may share an mtime tick


@pytest.fixture
def files(tmp_path, isolated_build_cache):
    code, data = tmp_path / "check.py", tmp_path / "snippet.py"
    code.write_text("def check(): ...\n")
    data.write_text("print(1)\n")
    return code, data


def _verdict(files, value="torch 2.13.0"):
    code, data = files
    return Verdict("snippet", [code], [data, value])


def test_a_pass_is_remembered_for_the_same_inputs(files):
    assert not _verdict(files).passed_before()
    _verdict(files).remember()
    assert _verdict(files).passed_before()


@pytest.mark.parametrize("change", ["input", "code", "value", "environment", "fresh", "off"])
def test_any_change_of_an_input_runs_the_check_again(files, monkeypatch, change):
    code, data = files
    _verdict(files).remember()
    value = "torch 2.13.0"
    if change == "input":
        data.write_text("print(2)\n")
    elif change == "code":
        code.write_text("def check(): return 1\n")
    elif change == "value":
        value = "torch 2.15.0"
    elif change == "environment":  # the lock file, Python, torch: one digest
        monkeypatch.setattr(verdicts, "environment", lambda: "another environment")
    elif change == "fresh":  # make test FRESH=1
        monkeypatch.setenv("TEST_VERDICTS", "off")
    else:
        monkeypatch.setenv("BUILD_CACHE", "off")
    assert not _verdict(files, value).passed_before()


def test_a_damaged_entry_is_a_miss(files):
    verdict = _verdict(files)
    build_cache.put(verdicts.KIND, verdict.key, "pa")  # half-written
    assert not verdict.passed_before()


def test_a_damaged_cache_file_is_a_miss_not_an_error(files, isolated_build_cache):
    _verdict(files).remember()
    build_cache._connection.close()
    build_cache._connection = None
    isolated_build_cache.write_bytes(b"\x00garbage" * 512)
    assert not _verdict(files).passed_before()


# ----------------------------------------------------------------- inputs found while running
@pytest.fixture
def site(tmp_path, isolated_build_cache):
    root = tmp_path / "site"
    (root / "a").mkdir(parents=True)
    (root / "a" / "index.html").write_text("<p>page</p>")
    (root / "style.css").write_text("p {}")
    (root / "index.json").write_text("{}")
    return root


def _loaded(site, environment=("chromium 1",)):
    return LoadedFiles("sweep", site, PREFIX, environment, replaced=frozenset(["index.json"]))


def test_a_browser_pass_is_remembered_for_the_same_files(site):
    assert not _loaded(site).passed_before(PAGE)
    _loaded(site).passed(PAGE, LOADED)
    assert _loaded(site).passed_before(PAGE)


@pytest.mark.parametrize("change", ["page", "style", "gone", "browser", "fresh"])
def test_any_change_of_a_loaded_file_forgets_it(site, monkeypatch, change):
    _loaded(site).passed(PAGE, LOADED)
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
        monkeypatch.setenv("TEST_VERDICTS", "off")
    assert not _loaded(site, environment).passed_before(PAGE)


def test_a_file_the_check_answers_itself_is_not_an_input_in_any_language(site):
    (site / "en").mkdir()
    (site / "en" / "index.json").write_text("{}")
    _loaded(site).passed(PAGE, LOADED | {f"http://127.0.0.1:1{PREFIX}en/index.json"})
    (site / "index.json").write_text('{"docs": ["new"]}')
    (site / "en" / "index.json").write_text('{"docs": ["new"]}')
    assert _loaded(site).passed_before(PAGE)


def test_nothing_is_remembered_unless_the_page_itself_was_loaded(site):
    _loaded(site).passed(PAGE, {f"http://127.0.0.1:1{PREFIX}style.css"})
    assert not _loaded(site).passed_before(PAGE)


def test_a_whole_test_is_keyed_by_the_files_under_its_places(tmp_path, monkeypatch):
    from tests.support import verdicts

    monkeypatch.setattr(verdicts, "ROOT", tmp_path)
    monkeypatch.setattr(verdicts, "_repository_files", lambda: ("a/x.py", "b/y.md"))
    for name in ("a/x.py", "b/y.md"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("1")
    digest = verdicts.places_digest.__wrapped__  # not the per-process memo
    only_a, every = digest(("a",)), digest(verdicts.EVERY_FILE)
    (tmp_path / "b" / "y.md").write_text("a prose edit")
    assert digest(("a",)) == only_a and digest(verdicts.EVERY_FILE) != every
    (tmp_path / "a" / "x.py").write_text("a code edit")
    assert digest(("a",)) != only_a
