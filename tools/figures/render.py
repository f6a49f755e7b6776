"""Render one figure script to SVG, once per language, in this process.

The build runs it in a child (``python -m tools figures render SCRIPT OUT_DIR``) so that
a failing or crashing script cannot take the build down with it.
"""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import LANGS, read_text, rel

NARROW = "-narrow"  # <stem>-narrow.<lang>.svg: the phone layout of a figure with panels
DEPS = "deps.json"  # written by the render child: every repository file it imported or read


def file_digest(path: Path) -> str | None:
    import hashlib

    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return None


class FigureError(ToolError, RuntimeError):
    """A figure script is malformed or failed; the message names it."""


def drawn_nothing(fig) -> str | None:
    """Why ``fig`` would publish as a blank picture (axes and ticks alone count as
    blank), or None when it shows something."""
    from matplotlib.text import Text

    def shown(a) -> bool:
        if not a.get_visible():
            return False
        if isinstance(a, Text):
            return bool(a.get_text().strip())
        return True

    artists = [*fig.texts, *fig.lines, *fig.patches, *fig.images, *fig.legends]
    for ax in fig.axes:
        artists += [*ax.lines, *ax.patches, *ax.collections, *ax.images, *ax.texts, *ax.artists]
        artists += [*ax.tables, ax.title, ax._left_title, ax._right_title]
    if not any(shown(a) for a in artists):
        return (
            "returned a figure with nothing drawn on it (no text, line, patch or image "
            "besides axes and ticks): it would publish as a blank picture. Draw into the "
            "figure that draw() returns."
        )
    return None


def render(script: Path, outdir: Path, deps: bool = False) -> list[Path]:
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
    source = read_text(script)  # not UTF-8, or NUL bytes: one line naming the file
    try:
        code = compile(source, str(script), "exec")
    except SyntaxError as err:
        raise FigureError(
            f"Figure script {rel(script)}:{err.lineno}: {err.msg}; fix the script (python {rel(script)} "
            "shows the same error)."
        ) from None
    read = _watch_reads()
    spec = importlib.util.spec_from_file_location(f"figure_{script.stem}", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    exec(code, module.__dict__)
    draw = getattr(module, "draw", None)
    if not callable(draw):
        raise FigureError(f"Figure script {rel(script)} defines no draw(lang) function.")
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    layouts = (False, True) if draws_narrow(draw) else (False,)
    for narrow, lang in itertools.product(layouts, LANGS):
        if narrow:
            from tools.figures.legible import phone_column

            with phone_column():
                fig = draw(lang, narrow=True)
        else:
            fig = draw(lang)
        if not isinstance(fig, Figure):
            raise FigureError(
                f"Figure script {rel(script)}: draw({lang!r}) returned {type(fig).__name__}, "
                "expected a matplotlib Figure."
            )
        empty = drawn_nothing(fig)
        if empty:
            raise FigureError(f"Figure script {rel(script)}: draw({lang!r}) {empty}")
        path = outdir / f"{script.stem}{NARROW if narrow else ''}.{lang}.svg"
        fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
        plt.close(fig)
        written.append(path)
    if deps:
        _write_deps(outdir, script, read)
    return written


def draws_narrow(draw) -> bool:
    """``draw(lang, narrow=False)``: the script also draws a phone layout."""
    import inspect

    try:
        return "narrow" in inspect.signature(draw).parameters
    except (TypeError, ValueError):
        return False


def _watch_reads() -> set[str]:
    """Every file opened for reading from now on (an audit hook; it cannot be removed,
    and the render child exits after one script)."""
    import os
    import sys

    read: set[str] = set()

    def hook(event: str, args: tuple) -> None:
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            mode = args[1] if len(args) > 1 else "r"
            if not (isinstance(mode, str) and any(c in mode for c in "wax+")):
                read.add(os.path.realpath(os.fsdecode(args[0])))

    sys.addaudithook(hook)
    return read


def _write_deps(outdir: Path, script: Path, read: set[str]) -> None:
    """``deps.json``: each repository file the render imported or read (and the rc file
    matplotlib used), with its digest, so that a change to any of them re-renders the
    figure (tools.figures.build._deps_hold)."""
    import json
    import os
    import sys

    import matplotlib

    from tools.core.repo import ROOT

    root = os.path.realpath(ROOT)
    skip = [os.path.realpath(p) for p in {sys.prefix, sys.base_prefix}] + [os.path.join(root, ".cache")]
    files = {os.path.realpath(m.__file__) for m in list(sys.modules.values()) if getattr(m, "__file__", None)}
    files |= read
    deps = {}
    for path in sorted(files):
        inside = path.startswith(root + os.sep) and not any(path.startswith(s + os.sep) for s in skip)
        if inside and os.path.isfile(path) and path != os.path.realpath(script):
            deps[os.path.relpath(path, root)] = file_digest(Path(path))
    rc = Path(matplotlib.matplotlib_fname())
    if rc.is_file():  # wherever it is: another rc re-renders too
        deps[str(rc.resolve())] = file_digest(rc)
    (outdir / DEPS).write_text(json.dumps(deps, indent=1, sort_keys=True) + "\n", encoding="utf-8")
