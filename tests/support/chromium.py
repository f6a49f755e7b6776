"""The browser the browser tests drive: one Chromium per test worker.

It comes from one setting, the CHROMIUM environment variable: a path to a Chromium
executable (default /usr/bin/chromium, which .ci/run installs with apt), or
``playwright`` for Playwright's own build. Kept apart from conftest.py because a
passing page check is remembered by the code that checked it (tests/support/verdicts.py).
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
MANAGED = CHROMIUM == "playwright"  # Playwright's own Chromium build


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


@functools.cache
def chromium_version() -> str:
    """The browser's version without starting it (a key of remembered browser checks)."""
    _need_chromium()
    if MANAGED:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            return f"playwright {p.chromium.executable_path}"
    out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=60)
    return out.stdout.strip() or out.stderr.strip()


@pytest.fixture(scope="session")  # once per worker: xdist interleaves modules
def browser():
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=None if MANAGED else CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield b
        b.close()
