"""Build-time figures: run each figure script once per content hash.

A figure script is ``figures/<section>/<page>/<name>.py`` with a function
``draw(lang: str) -> matplotlib.figure.Figure``. It is rendered once per language
to ``assets/figures/<section>/<page>/<name>.<lang>.svg`` in the built site.
A script may list data files it reads in a module-level ``INPUTS = [...]`` (glob
patterns relative to the repository root) so that new data re-renders it.

Usage:
    python -m tools.figures build              # render every stale figure
    python -m tools.figures render SCRIPT [DIR] # render one script (default: ./figure-preview)
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "figures"
CACHE = ROOT / ".cache" / "figures"
LANGS = ("zh", "en")
SITE_PREFIX = "assets/figures"
# Files every figure depends on besides its own script.
SHARED_INPUTS = ("tools/figures.py", "src/autograd_lens/*.py")


class FigureError(RuntimeError):
    """A figure script is malformed or failed; the message names it."""


def scripts() -> list[Path]:
    return sorted(p for p in FIGURES.rglob("*.py") if not p.name.startswith("_"))


def declared_inputs(script: Path) -> list[str]:
    try:
        tree = ast.parse(script.read_text(encoding="utf-8"), filename=str(script))
    except SyntaxError as err:
        raise FigureError(f"Figure script {_rel(script)} has a syntax error: {err}") from None
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
                    f"Figure script {_rel(script)}: INPUTS must be a literal list of glob strings."
                )
            return list(value)
    return []


def cache_key(script: Path) -> str:
    h = hashlib.sha256()
    for dist in ("torch", "matplotlib"):
        h.update(f"{dist}=={metadata.version(dist)}\n".encode())
    h.update(_rel(script).encode() + b"\0" + script.read_bytes())
    for pattern in (*SHARED_INPUTS, *declared_inputs(script)):
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file():
                h.update(_rel(path).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:20]


def site_uris(script: Path) -> dict[str, str]:
    try:
        rel = script.resolve().relative_to(FIGURES).with_suffix("")
    except ValueError:  # a script outside figures/ (tests, previews)
        rel = Path(script.stem)
    return {lang: f"{SITE_PREFIX}/{rel.as_posix()}.{lang}.svg" for lang in LANGS}


def build_one(script: Path) -> dict[str, Path]:
    """Return site URI -> rendered SVG path, rendering only on a cache miss."""
    target = CACHE / cache_key(script)
    stem = script.stem
    wanted = {uri: target / f"{stem}.{lang}.svg" for lang, uri in site_uris(script).items()}
    if all(p.is_file() for p in wanted.values()):
        return wanted
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="tmp-", dir=CACHE))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tools.figures", "render", str(script), str(tmp)],
            cwd=ROOT,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        if proc.returncode != 0:
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-25:])
            raise FigureError(
                f"Figure script {_rel(script)} failed (exit {proc.returncode}):\n{tail}\n"
                f"Reproduce with: python -m tools.figures render {_rel(script)}"
            )
        try:
            tmp.rename(target)
        except OSError:  # a concurrent build rendered it first
            shutil.rmtree(tmp, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return wanted


def build_all(jobs: int | None = None) -> dict[str, Path]:
    found = scripts()
    out: dict[str, Path] = {}
    with ThreadPoolExecutor(max_workers=jobs or min(2, os.cpu_count() or 1)) as pool:
        for result in pool.map(build_one, found):
            out.update(result)
    return out


def render(script: Path, outdir: Path) -> list[Path]:
    """Render one script in this process (used by the build in a subprocess)."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from autograd_lens.plotting import apply_site_style

    # A missing glyph draws a box: fail instead of publishing it.
    warnings.filterwarnings("error", message=r".*[Gg]lyph .* missing from")
    apply_site_style()
    spec = importlib.util.spec_from_file_location(f"figure_{script.stem}", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    draw = getattr(module, "draw", None)
    if not callable(draw):
        raise FigureError(f"Figure script {_rel(script)} defines no draw(lang) function.")
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in LANGS:
        fig = draw(lang)
        if not isinstance(fig, Figure):
            raise FigureError(
                f"Figure script {_rel(script)}: draw({lang!r}) returned {type(fig).__name__}, "
                "expected a matplotlib Figure."
            )
        path = outdir / f"{script.stem}.{lang}.svg"
        fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
        plt.close(fig)
        written.append(path)
    return written


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])]
    )
    env.setdefault("MPLBACKEND", "Agg")
    env["PYTHONHASHSEED"] = "0"
    return env


def _rel(path: Path) -> str:
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "build":
        for uri in sorted(build_all()):
            print(uri)
        return 0
    if len(argv) in (2, 3) and argv[0] == "render":
        script = Path(argv[1]).resolve()
        if not script.is_file():
            print(f"No figure script at {argv[1]}", file=sys.stderr)
            return 2
        outdir = Path(argv[2]) if len(argv) == 3 else Path("figure-preview")
        for path in render(script, outdir):
            print(path)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
