"""Passing checks, remembered by the content of everything they depend on.

An expensive check (a snippet's fresh run, a page's code blocks, a notebook, a
download in a fresh venv, a build's twin, a browser check) is a function of its
inputs: the files it reads, the code that checks, and the environment it runs in
(``requirements.lock``, Python, torch; for the browser also Chromium, axe-core and
the fonts). When a check passes, a digest of all of those is stored in the build
cache (``tools.core.cache``, kind ``verdict``); a later run that computes the same
digest reuses the pass instead of running the check again. Any changed byte is a
miss, and the check runs. Failures are never stored; a damaged cache is a miss.

Two shapes of input:

* ``Verdict``: the inputs are known before the check runs (a snippet, its record and
  the files its stamp names).
* ``LoadedFiles``: the inputs are found while the check runs (a browser check loads a
  page and whatever the page pulls in). The list of loaded site paths is stored with
  the pass, and the next run digests those paths as they are now.

``make test FRESH=1`` (``TEST_VERDICTS=off``) runs every check afresh and stores the
new passes; ``BUILD_CACHE=off`` neither reads nor stores. A clean clone (CI) has no
cache, so it runs everything.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from tools.core import cache as build_cache
from tools.core.repo import ROOT

KIND = "verdict"
HERE = Path(__file__).resolve().parent
PASS = "pass"


def reading() -> bool:
    """May a remembered pass be reused? (``TEST_VERDICTS=off`` or FRESH=1: no.)"""
    fresh = os.environ.get("TEST_VERDICTS", "on").lower() in ("off", "0", "no")
    return not fresh and build_cache.enabled(KIND)


# ------------------------------------------------------------------------- digests
_digests: dict[Path, tuple[int, int, str]] = {}


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes, remembered by mtime and size for this process;
    ``<missing>`` for a file that is not there."""
    try:
        stat = path.stat()
    except OSError:
        return "<missing>"
    known = _digests.get(path)
    if known and known[:2] == (stat.st_mtime_ns, stat.st_size):
        return known[2]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    _digests[path] = (stat.st_mtime_ns, stat.st_size, digest)
    return digest


def code_files(*places: str) -> list[Path]:
    """The Python files of repository folders or files (``"tools/snippets"``, ...)."""
    out: list[Path] = []
    for place in places:
        path = ROOT / place
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


SNIPPET_CHECK_CODE = ("tools/snippets", "tools/core")
# What the site is built from: every file of the repository (tracked or new, not
# ignored) outside these, which the build never reads.
NOT_BUILD_INPUTS = ("tests/", ".github/", ".ci/", "README.md", "CONTRIBUTING.md", "noxfile.py", ".gitignore")


def build_inputs() -> list[Path]:
    """The files a site build can read, found with git (new files count too)."""
    return [ROOT / n for n in _repository_files() if not n.startswith(NOT_BUILD_INPUTS)]


def snippet_inputs(snippet: Path) -> list[Path]:
    """What a snippet's run depends on: the file, its record, and the repository files
    its record's stamp names (what the run opened or imported, the helper included)."""
    from tools.snippets import stamp

    record = snippet.with_suffix(".out")
    named: list[str] = []
    if record.is_file():
        fields, _ = stamp.split(record.read_text(encoding="utf-8"))
        named = fields["files"] if fields else []
    return [snippet, record, *(ROOT / name for name in named)]


@functools.cache
def environment() -> str:
    """What every check runs in: the lock file, Python, torch, the machine, and the
    verdict code itself."""
    from importlib import metadata

    try:
        torch = metadata.version("torch")
    except metadata.PackageNotFoundError:
        torch = "none"
    parts = [
        file_digest(ROOT / "requirements.lock"),
        sys.version,
        torch,
        platform.machine(),
        file_digest(Path(__file__).resolve()),
        file_digest(HERE.parent / "conftest.py"),
    ]
    return build_cache.key("environment", *parts)


def _key(check: str, code: Iterable[Path], inputs: Iterable[object]) -> str:
    parts: list[object] = [environment(), check]
    for path in code:
        parts += [str(path), file_digest(path)]
    for item in inputs:
        if isinstance(item, Path):
            name = item.relative_to(ROOT).as_posix() if item.is_relative_to(ROOT) else str(item)
            parts += ["file", name, file_digest(item)]
        else:
            parts += ["value", item]
    return build_cache.key(*parts)


class Verdict:
    """One check whose inputs are known before it runs.

    ``code``: the files of the code that checks (the test module, the tools it calls);
    ``inputs``: paths (digested by content) and values (strings, bytes, tuples)."""

    def __init__(self, check: str, code: Sequence[Path], inputs: Sequence[object]):
        self.check = check
        self.key = _key(check, code, inputs)

    def passed_before(self) -> bool:
        return reading() and build_cache.get(KIND, self.key) == PASS

    def remember(self) -> None:
        build_cache.put(KIND, self.key, PASS)


class LoadedFiles:
    """Checks of one kind (``check``) whose inputs are the site files they load.

    ``environment``: what else decides the verdict (the browser's version, axe-core,
    the fonts); ``replaced``: site paths the check answers itself, in every language
    folder (``search/search_index.json`` also covers ``en/search/search_index.json``);
    their stand-in belongs in ``environment``."""

    def __init__(
        self,
        check: str,
        site: Path,
        prefix: str,
        environment: tuple[object, ...],
        replaced: frozenset[str],
        code: Sequence[Path] = (),
    ):
        self.site, self.prefix, self.replaced = site, prefix, replaced
        self._version = _key(check, code, environment)

    def _inputs_key(self, rel: str, loaded: list[str]) -> str | None:
        parts: list[str] = []
        for site_path in loaded:
            file = self.site / site_path
            if not file.is_file():
                return None  # gone from the site: check again
            parts += [site_path, file_digest(file)]
        return build_cache.key(self._version, "pass", rel, *parts)

    def site_path(self, url: str) -> str | None:
        """The file under the built site that serves ``url``, or None."""
        path = unquote(urlparse(url).path)
        if not path.startswith(self.prefix):
            return None
        path = path[len(self.prefix) :]
        return path + "index.html" if path == "" or path.endswith("/") else path

    def passed_before(self, rel: str) -> bool:
        """Did the check of ``rel`` pass with exactly the files the site has now?"""
        if not reading():
            return False
        stored = build_cache.get(KIND, build_cache.key(self._version, "loaded", rel))
        if stored is None:
            return False
        try:
            loaded = json.loads(stored)
        except ValueError:  # a damaged entry is a miss
            return False
        digest = self._inputs_key(rel, loaded)
        return digest is not None and build_cache.get(KIND, digest) == PASS

    def _is_replaced(self, site_path: str) -> bool:
        return any(site_path == r or site_path.endswith("/" + r) for r in self.replaced)

    def passed(self, rel: str, urls: Iterable[str], page: bool = True) -> None:
        """Remember that the check of ``rel`` passed after loading ``urls`` (``page``:
        ``rel`` is a page of the site, which must be among them)."""
        paths = {p for p in map(self.site_path, urls) if p and not self._is_replaced(p)}
        loaded = sorted(p for p in paths if (self.site / p).is_file())
        if not loaded or (page and self.site_path(self.prefix + rel) not in loaded):
            return  # the page itself must be among the inputs
        digest = self._inputs_key(rel, loaded)
        if digest is not None:
            build_cache.put(KIND, build_cache.key(self._version, "loaded", rel), json.dumps(loaded))
            build_cache.put(KIND, digest, PASS)


# ------------------------------------------------------------------------- pytest glue
class Recorder:
    """What a test asks of its verdict: ``if verdict.reuse(...): return``."""

    def __init__(self, node: pytest.Item):
        self.node = node
        self.pending: Verdict | None = None

    def reuse(self, check: str, code: Sequence[Path], inputs: Sequence[object]) -> bool:
        """True when this check passed before with these exact inputs (the test then
        returns at once); otherwise the pass of this run is remembered."""
        verdict = Verdict(check, [Path(self.node.path), *code], inputs)
        if verdict.passed_before():
            note(self.node, "reused")
            return True
        note(self.node, "ran")
        self.pending = verdict
        return False


def note(node: pytest.Item, how: str) -> None:
    """Count this check in the run's summary (``reused`` or ``ran``), once per test:
    a keyed test that runs and then reuses an inner check counts as reused."""
    node.user_properties[:] = [p for p in node.user_properties if p[0] != "verdict"]
    node.user_properties.append(("verdict", how))


@pytest.fixture
def verdict(request):
    recorder = Recorder(request.node)
    yield recorder
    report = getattr(request.node, "verdict_call_report", None)
    if recorder.pending is not None and report is not None and report.passed:
        recorder.pending.remember()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.verdict_call_report = report
    pending = getattr(item, "keyed_pending", None)
    if pending is not None:
        if not report.passed:
            item.keyed_pending = None  # a failure, an error or a skip: nothing to remember
        elif report.when == "teardown":
            pending.remember()


# ------------------------------------------------------------------ whole tests, keyed
# Every test under tests/ is a function of the repository's files (what git lists,
# new files included), its own module and tests/support, and the environment above.
# A test that passed with exactly those bytes is reused whole: no fixture is set up and
# nothing runs. A module narrows what its tests read with ``KEYED_ON = ("tools",
# "figures")`` (folders or files), or opts out with ``KEYED_ON = None``. Not keyed this
# way: tests that drive the browser (their inputs are the pages they load: LoadedFiles),
# tests marked gpu, and the pages' code blocks (their own Verdict).
EVERY_FILE = ("",)
# Settings some tests read: part of the key. BUILT_SITE (checks of a site built
# elsewhere) turns the keying off.
KEYED_ENV = ("SOURCE_REPOSITORY", "SITE_COMMIT", "SITE_URL", "ALL_NOTEBOOKS", "CHROMIUM", "CI")


@functools.cache
def _repository_files() -> tuple[str, ...]:
    """What git lists in the checkout, new files included, ignored ones not (once per
    process)."""
    import subprocess

    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return tuple(sorted({n for n in listed.split("\0") if n}))


@functools.cache
def places_digest(places: tuple[str, ...]) -> str:
    """One digest of the repository files under ``places`` ("" is all of them), taken
    once per process: a file a test writes meanwhile only makes a later run miss."""
    prefixes = tuple(p.rstrip("/") for p in places)

    def chosen(name: str) -> bool:
        return any(p == "" or name == p or name.startswith(p + "/") for p in prefixes)

    parts: list[str] = []
    for name in filter(chosen, _repository_files()):
        path = ROOT / name
        # a link git lists as a file (a clone's .venv pointing at another checkout's):
        # its target, not what lies behind it
        parts += [name, f"link {os.readlink(path)}" if path.is_symlink() else file_digest(path)]
    return build_cache.key("places", *parts)


def keyed_test(item: pytest.Item) -> Verdict | None:
    """The verdict that stands for the whole of ``item``, or None when it is not keyed."""
    module = getattr(item, "module", None)
    if not isinstance(item, pytest.Function) or module is None:
        return None
    places = getattr(module, "KEYED_ON", EVERY_FILE)
    if not places or "browser" in item.fixturenames or item.get_closest_marker("browser"):
        return None
    if item.get_closest_marker("gpu") or os.environ.get("BUILT_SITE"):
        return None
    code = [Path(item.path), HERE.parent / "conftest.py", *sorted(HERE.glob("*.py"))]
    settings = tuple((name, os.environ.get(name, "")) for name in KEYED_ENV)
    return Verdict("test " + item.nodeid, code, [places_digest(tuple(places)), repr(settings)])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """A keyed test that passed before with the same inputs is reported passed at once."""
    verdict = keyed_test(item)
    if verdict is None:
        return None
    if not verdict.passed_before():
        item.keyed_pending = verdict  # remembered when setup, call and teardown pass
        note(item, "ran")
        return None
    from _pytest.reports import TestReport

    ihook = item.ihook
    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for when in ("setup", "call", "teardown"):
        props = [("verdict", "reused")] if when == "call" else []
        report = TestReport(
            item.nodeid,
            item.location,
            {name: 1 for name in item.keywords},
            "passed",
            None,
            when,
            [],
            0.0,
            user_properties=props,
        )
        ihook.pytest_runtest_logreport(report=report)
    item.session._setupstate.teardown_exact(nextitem)  # what the tests before it set up
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


def pytest_terminal_summary(terminalreporter):
    """One line: how many checks reused a remembered pass and how many ran."""
    counts = {"reused": 0, "ran": 0}
    for kind in ("passed", "failed"):
        for report in terminalreporter.stats.get(kind, []):
            if getattr(report, "when", "") == "call":
                for name, value in report.user_properties:
                    if name == "verdict" and value in counts:
                        counts[value] += 1
    if counts["reused"] or counts["ran"]:
        terminalreporter.write_line(
            f"keyed checks: {counts['reused']} reused (passed before with the same inputs), "
            f"{counts['ran']} ran; `make test FRESH=1` runs them all"
        )
