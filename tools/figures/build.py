"""Build-time figures: run each figure script once per content hash, in a child.

A figure script is ``figures/<section>/<page>/<name>.py`` with a function
``draw(lang: str) -> matplotlib.figure.Figure``. It is rendered (``tools.figures.render``)
once per language to ``assets/figures/<section>/<page>/<name>.<lang>.svg`` in the built
site; a script whose ``draw`` takes ``narrow`` also gets its phone layout,
``<name>-narrow.<lang>.svg`` (tools/site/reader_html.py offers it below 45em). A script
may list data files it reads in a module-level ``INPUTS = [...]`` (glob patterns relative
to the repository root) so that new data re-renders it.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

from tools.core.files import os_error_message
from tools.core.repo import FIGURES, LANGS, ROOT, child_env, rel
from tools.figures.render import DEPS, NARROW, FigureError, file_digest

__all__ = ["FIGURES", "FigureError"]  # re-exported for the tests

CACHE = ROOT / ".cache" / "figures"
SITE_PREFIX = "assets/figures"
# Files every figure depends on besides its own script: the rendering code. The modules
# a script imports (src/autograd_lens/, tools/core/, figures/_shared.py) and the files it
# reads are recorded by its render (deps.json), so an edit of one re-renders only the
# figures that use it.
SHARED_INPUTS = ("tools/figures/*.py",)
RENDER_TIMEOUT = 600  # seconds for one script, both languages; the slowest takes ~20 s
ERROR_TAIL_LINES = 25  # lines of a failing script's output quoted in the error


def scripts() -> list[Path]:
    return sorted(p for p in FIGURES.rglob("*.py") if not p.name.startswith("_"))


def declared_inputs(script: Path) -> list[str]:
    try:
        tree = ast.parse(script.read_text(encoding="utf-8"), filename=str(script))
    except SyntaxError as err:
        raise FigureError(f"Figure script {rel(script)} has a syntax error: {err}") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "INPUTS" for t in node.targets
        ):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                value = None
            if not (isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)):
                raise FigureError(
                    f"Figure script {rel(script)}: INPUTS must be a literal list of glob strings."
                )
            missing = [v for v in value if not any(ROOT.glob(v))]
            if missing:
                raise FigureError(
                    f"Figure script {rel(script)}: INPUTS {missing} match no file (moved or renamed?); "
                    "list the files the figure is drawn from, so an edit of one re-renders it."
                )
            return list(value)
    return []


def rc_files() -> list[Path]:
    """The matplotlibrc files a render may read, in matplotlib's order (the render child
    works in the repository root): ./matplotlibrc, $MATPLOTLIBRC, the config folder's."""
    found = [ROOT / "matplotlibrc"]
    env = os.environ.get("MATPLOTLIBRC")
    if env:
        found.append(Path(env) / "matplotlibrc" if Path(env).is_dir() else Path(env))
    config = os.environ.get("MPLCONFIGDIR") or Path(
        os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config", "matplotlib"
    )
    found.append(Path(config) / "matplotlibrc")
    return found


def cache_key(script: Path) -> str:
    """What a render is looked up by: the script, its declared inputs, the shared code,
    the matplotlib rc files and the versions. The modules and files the render itself
    imported and read are checked against ``deps.json`` beside the SVGs (``_deps_hold``)."""
    h = hashlib.sha256()
    for dist in ("torch", "matplotlib"):
        h.update(f"{dist}=={metadata.version(dist)}\n".encode())
    h.update(rel(script).encode() + b"\0" + script.read_bytes())
    for pattern in (*SHARED_INPUTS, *declared_inputs(script)):
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file():
                h.update(rel(path).encode() + b"\0" + path.read_bytes())
    for rc in rc_files():
        if rc.is_file():
            h.update(b"rc\0" + str(rc).encode() + b"\0" + rc.read_bytes())
    return h.hexdigest()[:20]


def _deps_hold(target: Path) -> bool:
    """The files the last render of this key imported or read are unchanged (a shared
    module such as figures/_titles.py, a snippet run by run_sections, the rc file)."""
    try:
        deps = json.loads((target / DEPS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return all(
        file_digest(Path(path) if Path(path).is_absolute() else ROOT / path) == d for path, d in deps.items()
    )


def cache_off() -> bool:
    """BUILD_CACHE=off (or BUILD_CACHE_BYPASS=figures): render every figure afresh, once
    per process, as the build's other caches are bypassed (tools/core/cache.py)."""
    from tools.core import cache as build_cache

    return not build_cache.enabled("figures")


_fresh: set[str] = set()  # keys rendered by this process (BUILD_CACHE=off renders each once)


def site_uris(script: Path) -> dict[str, str]:
    try:
        name = script.resolve().relative_to(FIGURES).with_suffix("")
    except ValueError:  # a script outside figures/ (tests, previews)
        name = Path(script.stem)
    return {lang: f"{SITE_PREFIX}/{name.as_posix()}.{lang}.svg" for lang in LANGS}


def build_one(script: Path) -> dict[str, Path]:
    """Return site URI -> rendered SVG path, rendering only on a cache miss."""
    key = cache_key(script)
    target = CACHE / key
    stem = script.stem
    wanted = {uri: target / f"{stem}.{lang}.svg" for lang, uri in site_uris(script).items()}
    fresh_needed = cache_off() and key not in _fresh
    if not fresh_needed and all(p.is_file() for p in wanted.values()) and _deps_hold(target):
        return wanted | _narrow(target, stem, wanted)
    try:
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="tmp-", dir=CACHE))
    except OSError as err:
        raise FigureError(os_error_message(err, CACHE)) from None
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tools", "figures", "render", "--deps", str(script), str(tmp)],
            cwd=ROOT,
            env=child_env(),
            capture_output=True,
            text=True,
            timeout=RENDER_TIMEOUT,
        )
        if proc.returncode != 0:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            own = next((i for i, line in enumerate(lines) if f'File "{script}"' in line), None)
            if own is not None:  # from the script's own frame: the tooling's frames are noise
                lines = ["Traceback (most recent call last):", *lines[own:]]
            tail = "\n".join(lines[-ERROR_TAIL_LINES:])
            raise FigureError(
                f"Figure script {rel(script)} failed (exit {proc.returncode}):\n{tail}\n"
                f"Reproduce with: python -m tools figures render {rel(script)}"
            )
        _replace(tmp, target)
        _fresh.add(key)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return wanted | _narrow(target, stem, wanted)


def _narrow(target: Path, stem: str, wanted: dict[str, Path]) -> dict[str, Path]:
    """The phone layouts the render drew (``<stem>-narrow.<lang>.svg``), beside the
    wide SVGs in the site: one render (one key) writes both, so they always match."""
    out = {}
    for uri, path in wanted.items():
        narrow = path.with_name(path.name.replace(f"{stem}.", f"{stem}{NARROW}.", 1))
        if narrow.is_file():
            out[uri.replace(f"/{stem}.", f"/{stem}{NARROW}.")] = narrow
    return out


def _replace(new: Path, target: Path) -> None:
    """Put the rendered folder in place of an older render of the same key."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix="tmp-old-", dir=CACHE))
        with contextlib.suppress(OSError):  # a concurrent build moved it first
            target.rename(old / "x")
    try:
        new.rename(target)
    except OSError:  # a concurrent build rendered it first
        shutil.rmtree(new, ignore_errors=True)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


STALE_TMP_SECONDS = 2 * RENDER_TIMEOUT  # older temporary folders belong to no running build


def remove_stale_tmp() -> None:
    """Temporary folders left by a killed build (kill -9 leaves its renders' folders)."""
    if not CACHE.is_dir():
        return
    now = time.time()
    for tmp in CACHE.glob("tmp-*"):
        try:
            if now - tmp.stat().st_mtime > STALE_TMP_SECONDS:
                shutil.rmtree(tmp, ignore_errors=True)
        except OSError:
            pass


def build_all(jobs: int | None = None) -> dict[str, Path]:
    remove_stale_tmp()
    found = scripts()
    out: dict[str, Path] = {}
    with ThreadPoolExecutor(max_workers=jobs or min(2, os.cpu_count() or 1)) as pool:
        for result in pool.map(build_one, found):
            out.update(result)
    return out
