"""Render one figure script to SVG, once per language, in this process.

The build runs it in a child (``python -m tools figures render SCRIPT OUT_DIR``) so that
a failing or crashing script cannot take the build down with it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import LANGS, rel


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
        raise FigureError(f"Figure script {rel(script)} defines no draw(lang) function.")
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in LANGS:
        fig = draw(lang)
        if not isinstance(fig, Figure):
            raise FigureError(
                f"Figure script {rel(script)}: draw({lang!r}) returned {type(fig).__name__}, "
                "expected a matplotlib Figure."
            )
        empty = drawn_nothing(fig)
        if empty:
            raise FigureError(f"Figure script {rel(script)}: draw({lang!r}) {empty}")
        path = outdir / f"{script.stem}.{lang}.svg"
        fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
        plt.close(fig)
        written.append(path)
    return written
