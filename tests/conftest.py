"""Shared fixtures: the snippet fork server, the built site; CUDA-marked tests skip."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))  # this checkout's helper, not a shared venv's editable one

from tools.core.repo import cuda_available  # noqa: E402

from .support.chromium import browser  # noqa: E402, F401  (the fixture, for every test module)
from .support.codeblocks import shared_fork_server  # noqa: E402
from .support.failures import ARTIFACTS  # noqa: E402
from .support.verdicts import (  # noqa: E402, F401  (the fixture and its hooks)
    pytest_runtest_makereport,
    pytest_runtest_protocol,
    pytest_terminal_summary,
    verdict,
)


def pytest_configure(config):
    # Collection reads every page and snippet: a byte that is not UTF-8 would surface
    # as a traceback per test module. Say once which file and line instead.
    from tools.core.errors import ToolError
    from tools.core.repo import check_text_files, helper_problem

    try:
        check_text_files()
        helper_problem()
    except ToolError as err:
        raise pytest.UsageError(str(err)) from None


def pytest_collection_modifyitems(config, items):
    if cuda_available():
        return
    skip = pytest.mark.skip(reason="needs CUDA: torch.cuda.is_available() is False on this machine")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def fork_server(pytestconfig):
    """The fork server the page-code items use too (tests/support/codeblocks.py)."""
    return shared_fork_server(pytestconfig)


def _build(out: Path) -> str | None:
    """`mkdocs build --strict` into ``out``; the failure message, or None."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0:
        return "mkdocs build --strict failed:\n" + "\n".join(proc.stderr.splitlines()[-40:])
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "build-seconds.txt").write_text(f"{time.perf_counter() - start:.1f}\n")
    return None


SITES = ROOT / ".cache" / "site"  # built sites, by the digest of everything they are built from


def _site_key() -> str:
    from .support.verdicts import Verdict, build_inputs

    return Verdict("site", [], build_inputs()).key[:24]


def _build_or_reuse() -> str:
    """``ok <folder>`` or the build's failure: a site built before from exactly these
    inputs (every file of the repository the build can read, the lock file, Python,
    torch) is reused; any change builds afresh (``make test FRESH=1`` always does)."""
    import shutil

    from .support.verdicts import reading

    key = _site_key()
    site, done = SITES / key, SITES / f"{key}.built"
    if reading() and done.is_file() and site.is_dir():
        return f"ok {site}"
    SITES.mkdir(parents=True, exist_ok=True)
    tmp = SITES / f"tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    failure = _build(tmp)
    if failure:
        shutil.rmtree(tmp, ignore_errors=True)
        return failure
    for old in SITES.iterdir():  # keep one built site
        if old != tmp:
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink()
    tmp.rename(site)
    done.write_text("built\n", encoding="utf-8")
    return f"ok {site}"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id) -> Path:
    """`mkdocs build --strict`, once per test run: the first xdist worker that needs it
    builds it (or finds it built from the same inputs in .cache/site/), under a lock,
    and the others reuse it. BUILT_SITE=<folder> tests a site already built
    (``mkdocs build --strict -d <folder>``) instead, to rerun a few checks against one build."""
    from filelock import FileLock

    if os.environ.get("BUILT_SITE"):
        return Path(os.environ["BUILT_SITE"])

    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    outcome = shared / "built-site.outcome"
    with FileLock(str(shared / "built-site.lock")):
        if not outcome.is_file():
            outcome.write_text(_build_or_reuse(), encoding="utf-8")
        result = outcome.read_text(encoding="utf-8")
    if not result.startswith("ok "):
        pytest.fail(result, pytrace=False)
    return Path(result.removeprefix("ok "))


@pytest.fixture
def isolated_build_cache(tmp_path, monkeypatch) -> Path:
    """tools.core.cache in a fresh file of its own, on, with nothing bypassed."""
    from tools.core import cache as build_cache

    monkeypatch.setattr(build_cache, "CACHE_FILE", tmp_path / "cache.sqlite")
    monkeypatch.setattr(build_cache, "_connection", None)
    monkeypatch.delenv("BUILD_CACHE", raising=False)
    monkeypatch.delenv("BUILD_CACHE_BYPASS", raising=False)
    monkeypatch.delenv("TEST_VERDICTS", raising=False)
    return tmp_path / "cache.sqlite"


@pytest.fixture(scope="session", autouse=True)
def generated_includes(request):
    """What the pages include from generated/ (the build writes it; a clean clone has
    none until then): written once per session, as `make build` does first. Not for a
    session of the helper's own tests alone (the version matrix runs them on torch
    releases the site's generators do not import on)."""
    helper_only = (ROOT / "tests" / "helper", ROOT / "src")
    paths = [Path(item.path) for item in request.session.items]
    if all(any(path.is_relative_to(place) for place in helper_only) for path in paths):
        return
    from tools.build.generate import generate

    generate()
