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
from tools.snippets.records import VARIANT  # noqa: E402
from tools.snippets.runner import ForkServer  # noqa: E402

from .support.chromium import browser  # noqa: E402, F401  (the fixture, for every test module)
from .support.failures import ARTIFACTS  # noqa: E402


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
def fork_server():
    server = ForkServer(env=VARIANT)  # as another machine: 2 threads, another day
    yield server
    server.close()


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


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id) -> Path:
    """`mkdocs build --strict` into a temporary folder, once per test run: the first
    xdist worker that needs it builds it, under a lock, and the others reuse it.
    BUILT_SITE=<folder> tests a site already built (``mkdocs build --strict -d <folder>``)
    instead, to rerun a few checks against one build."""
    from filelock import FileLock

    if os.environ.get("BUILT_SITE"):
        return Path(os.environ["BUILT_SITE"])

    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    out, verdict = shared / "built-site", shared / "built-site.verdict"
    with FileLock(str(shared / "built-site.lock")):
        if not verdict.is_file():
            failure = _build(out)
            verdict.write_text(failure or "ok", encoding="utf-8")
        result = verdict.read_text(encoding="utf-8")
    if result != "ok":
        pytest.fail(result, pytrace=False)
    return out


@pytest.fixture
def isolated_build_cache(tmp_path, monkeypatch) -> Path:
    """tools.site.cache in a fresh file of its own, on, with nothing bypassed."""
    from tools.site import cache as build_cache

    monkeypatch.setattr(build_cache, "CACHE_FILE", tmp_path / "cache.sqlite")
    monkeypatch.setattr(build_cache, "_connection", None)
    monkeypatch.delenv("BUILD_CACHE", raising=False)
    monkeypatch.delenv("BUILD_CACHE_BYPASS", raising=False)
    return tmp_path / "cache.sqlite"


def pytest_terminal_summary(terminalreporter):
    """Say how many browser page checks were skipped as unchanged (tests/support/browser_verdicts.py)."""
    counts = {"unchanged": 0, "loaded": 0}
    reports = terminalreporter.stats.get("passed", []) + terminalreporter.stats.get("failed", [])
    for report in reports:
        if getattr(report, "when", "") == "call":
            for name, value in report.user_properties:
                if name == "browser_check":
                    counts[value] += 1
    if counts["unchanged"]:
        terminalreporter.write_line(
            f"browser page checks: {counts['loaded']} loaded in Chromium, {counts['unchanged']} "
            "passed before with the same page, files, check code and browser (not loaded again; "
            "BUILD_CACHE_BYPASS=browser checks them all)"
        )
