"""The site's matplotlib style: reproducible SVG, Chinese labels without boxes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

# Families tried for CJK glyphs, in order; the first one found is used as fallback.
CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans SC", "WenQuanYi Micro Hei", "Source Han Sans SC")


def _bundled_cjk_font() -> Path | None:
    """The Noto Sans CJK SC file shipped in the ``mplfonts`` wheel, if installed."""
    spec = importlib.util.find_spec("mplfonts")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "fonts" / "NotoSansCJKsc-Regular.otf"
    return path if path.is_file() else None


def apply_site_style() -> str:
    """Configure matplotlib for the site's figures and return the CJK family in use.

    Glyphs are written as paths (``svg.fonttype = "path"``), so a figure looks the same
    on every reader's machine whatever fonts it has; ids and metadata are fixed so the
    same data gives the same bytes.

    Raises:
        RuntimeError: No CJK font is available (Chinese labels would draw as boxes).
            Install the ``mplfonts`` package (in the lock file) or Debian's
            ``fonts-noto-cjk``.
    """
    import matplotlib as mpl
    from matplotlib import font_manager

    bundled = _bundled_cjk_font()
    if bundled is not None:
        font_manager.fontManager.addfont(str(bundled))
    available = {f.name for f in font_manager.fontManager.ttflist}
    cjk = next((f for f in CJK_FAMILIES if f in available), None)
    if cjk is None:
        raise RuntimeError(
            "No CJK font found for matplotlib, so Chinese labels would draw as boxes. "
            "Run `make setup` (installs mplfonts from the lock file) or "
            "`apt-get install fonts-noto-cjk`."
        )
    mpl.rcParams.update(
        {
            "font.family": ["DejaVu Sans", cjk],  # per-glyph fallback to the CJK font
            "font.monospace": ["DejaVu Sans Mono", cjk],
            "axes.unicode_minus": False,
            "svg.fonttype": "path",
            "svg.hashsalt": "detach-in-depth",
            "figure.dpi": 100,
            "savefig.transparent": False,
            "figure.facecolor": "white",
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return cjk
