"""Figure text a reader can read: the smallest text of a figure is at least
MIN_TEXT_PX CSS pixels when the figure is shown at the text column's width.

A figure script ends its ``draw`` with ``return legible(fig)`` and lists this file in
its ``INPUTS`` (so a change here re-renders it). tests/content/test_browser.py measures the
result in the built site.

A figure with side-by-side panels may also draw a phone layout (``draw(lang, narrow)``,
panels stacked): tools/figures/render.py renders it with the column set to
PHONE_COLUMN_PX (``phone_column()``), so the same ``legible(fig)`` sizes its text for a
390 px screen.
"""

from __future__ import annotations

from contextlib import contextmanager

from matplotlib.figure import Figure
from matplotlib.text import Text

MIN_TEXT_PX = 11
COLUMN_PX = 672  # the text column at 1280 px (688 px) less the figure card's padding
PHONE_COLUMN_PX = 340  # a 390 px screen less the page margins (2 x 16) and the card's padding
_column = [COLUMN_PX]  # the column legible() sizes text for (phone_column() changes it)
CSS_PX_PER_INCH = 96  # an SVG from matplotlib is sized in pt: 72 per inch, shown at 96 px
SAVE_PAD_INCHES = 0.1  # savefig(bbox_inches="tight") pads the bounding box by this much


@contextmanager
def phone_column():
    """Within it, legible() sizes text for a phone's column (the narrow variant)."""
    _column.append(PHONE_COLUMN_PX)
    try:
        yield
    finally:
        _column.pop()


def _drawable(fig: Figure) -> Figure:
    """A ``Figure()`` made without pyplot has a canvas that cannot draw: give it Agg's."""
    if not hasattr(fig.canvas, "get_renderer"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    return fig


def natural_width_px(fig: Figure) -> float:
    _drawable(fig).canvas.draw()
    bbox = fig.get_tightbbox(fig.canvas.get_renderer())
    return (bbox.width + 2 * SAVE_PAD_INCHES) * CSS_PX_PER_INCH


def smallest_text_px(fig: Figure) -> float:
    natural = natural_width_px(fig)
    scale = min(1.0, _column[-1] / natural)
    sizes = [t.get_fontsize() for t in _texts(fig)]
    return min(sizes) * CSS_PX_PER_INCH / 72 * scale if sizes else float("inf")


def legible(fig: Figure, min_px: float = MIN_TEXT_PX) -> Figure:
    """Raise every font smaller than needed; re-run tight_layout if the figure used it."""
    for _ in range(5):
        natural = natural_width_px(fig)
        scale = min(1.0, _column[-1] / natural)
        need_pt = (min_px + 0.2) / scale * 72 / CSS_PX_PER_INCH  # a margin for rounding
        small = [t for t in _texts(fig) if t.get_fontsize() < need_pt]
        if not small:
            return fig
        for t in small:
            t.set_fontsize(need_pt)
    if smallest_text_px(fig) < min_px:
        raise ValueError(
            f"figure text stays below {min_px} px at {_column[-1]} px wide: make the figure "
            "narrower (figsize) so that larger fonts fit"
        )
    return fig


def _texts(fig: Figure) -> list[Text]:
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
