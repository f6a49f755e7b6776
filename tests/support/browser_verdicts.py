"""Passing browser checks, remembered by the content of everything they looked at.

A page check in tests/content/test_browser.py loads one built page in Chromium and inspects
it. Its verdict is a function of its inputs: the bytes of the page and of every file
the page loaded (styles, scripts, fonts, figures), the check's own code, axe-core,
Playwright, the Chromium build and the system fonts. When a check passes, the site
paths it loaded are stored with a digest of all of those in the build cache
(``tools.site.cache``, kind ``browser``); the next run recomputes the digest from
the files as they are now, and a page whose digest matches passed with these exact
inputs already, so it is not loaded again. Any changed byte is a miss and the page is
checked in the browser. Failures are never stored.

``BUILD_CACHE_BYPASS=browser`` (or ``BUILD_CACHE=off``) checks every page afresh; a
clean clone (CI) has no cache and checks them all.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

from tools.site import cache as build_cache

KIND = "browser"
HERE = Path(__file__).resolve().parent
CHECK_CODE = [HERE.parent / "content" / "test_browser.py", HERE / "chromium.py", Path(__file__).resolve()]


def _fonts() -> str:
    """The system fonts Chromium can fall back to (they change the layout)."""
    fc_list = shutil.which("fc-list")
    if not fc_list:
        return "no fc-list"
    out = subprocess.run([fc_list, "--format", "%{file} %{fontversion}\n"], capture_output=True, text=True)
    return "\n".join(sorted(out.stdout.splitlines()))


class Verdicts:
    """The remembered passes of one kind of check (``check``), for one built site."""

    def __init__(
        self, check: str, site: Path, prefix: str, environment: tuple[object, ...], replaced: frozenset[str]
    ):
        """``environment``: what else decides the verdict; ``replaced``: site paths the
        check answers itself, in every language folder (``search/search_index.json``
        also covers ``en/search/search_index.json``); their stand-in belongs in
        ``environment``."""
        self.site, self.prefix, self.replaced = site, prefix, replaced
        code = [p.read_bytes() for p in CHECK_CODE]
        self._version = build_cache.key(check, *code, *environment, _fonts())
        self._digests: dict[Path, tuple[int, int, str]] = {}

    def _file_digest(self, path: Path) -> str:
        stat = path.stat()
        known = self._digests.get(path)
        if known and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        self._digests[path] = (stat.st_mtime_ns, stat.st_size, digest)
        return digest

    def _inputs_key(self, rel: str, loaded: list[str]) -> str | None:
        parts = []
        for site_path in loaded:
            file = self.site / site_path
            if not file.is_file():
                return None  # gone from the site: check again
            parts += [site_path, self._file_digest(file)]
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
        stored = build_cache.get(KIND, build_cache.key(self._version, "loaded", rel))
        if stored is None:
            return False
        digest = self._inputs_key(rel, json.loads(stored))
        return digest is not None and build_cache.get(KIND, digest) == "pass"

    def _is_replaced(self, site_path: str) -> bool:
        return any(site_path == r or site_path.endswith("/" + r) for r in self.replaced)

    def passed(self, rel: str, urls: set[str]) -> None:
        """Remember that the check of ``rel`` passed after loading ``urls``."""
        paths = {p for p in map(self.site_path, urls) if p and not self._is_replaced(p)}
        loaded = sorted(p for p in paths if (self.site / p).is_file())
        if self.site_path(self.prefix + rel) not in loaded:
            return  # the page itself must be among the inputs
        digest = self._inputs_key(rel, loaded)
        if digest is not None:
            build_cache.put(KIND, build_cache.key(self._version, "loaded", rel), json.dumps(loaded))
            build_cache.put(KIND, digest, "pass")
