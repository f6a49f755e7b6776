"""The phone layout of a figure (``draw(lang, narrow=True)``): titles and legend titles
wrapped to a phone's column, so that the figure stays narrow and its text large."""

from __future__ import annotations


def wrap(text: str, width: int = 26) -> str:
    """``text`` on lines of at most ``width`` characters (a CJK character counts two),
    broken at spaces and after Chinese punctuation; existing line breaks are kept."""
    lines = []
    for line in text.split("\n"):
        for punct in "，、：；":  # a Chinese clause may start a line of its own
            line = line.replace(punct, punct + " ")
        words, current = _glued(line.split(" ")), ""
        for word in words:
            if not word:
                continue
            joined = (
                f"{current} {word}" if current and not current.endswith(tuple("，、：；")) else current + word
            )
            if current and _width(joined) > width:
                lines.append(current)
                current = word
            else:
                current = joined
        lines.append(current)
    for punct in "，、：；":
        lines = [line.replace(punct + " ", punct) for line in lines]
    return "\n".join(lines)


def _glued(words: list[str]) -> list[str]:
    """Operators and short numbers stay with their neighbours: "sum > 0", "+= loss"."""
    out: list[str] = []
    for word in words:
        if out and (_operand(word) or _operand(out[-1].rsplit("\u00a0", 1)[-1])):
            out[-1] += "\u00a0" + word
        else:
            out.append(word)
    return [w.replace("\u00a0", " ") for w in out]


def _operand(word: str) -> bool:
    return 0 < len(word) <= 2 and not any(c.isalpha() for c in word)


def _width(text: str) -> int:
    return sum(2 if "\u3000" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" else 1 for c in text)


def for_phone(fig, width: int = 26):
    """Wrap the figure's title, the axes' titles and the legend titles for a phone."""
    if fig._suptitle is not None:
        fig._suptitle.set_text(wrap(fig._suptitle.get_text(), width))
    for ax in fig.axes:
        if ax.title.get_text():
            ax.title.set_text(wrap(ax.title.get_text(), width))
        legend = ax.get_legend()
        if legend is not None and legend.get_title().get_text():
            legend.set_title(wrap(legend.get_title().get_text(), width))
    return fig


def stagger_rows(ax, drop: float = 1.0, margin: float = 1.2, min_boxes: int = 2):
    """A graph drawn by ``autograd_lens.draw_graph`` made narrower for a phone: in a row of
    ``min_boxes`` or more boxes every second box moves down by ``drop`` (data units), so that
    neighbours may overlap horizontally without touching, and the rows below move down
    with it. The arrows are anchored on the boxes, so they follow; the x limits hug the
    boxes (``margin`` data units either side of the outermost centres)."""
    from matplotlib.text import Annotation

    boxes = [t for t in ax.texts if not isinstance(t, Annotation)]
    rows: dict[float, list] = {}
    for box in boxes:
        rows.setdefault(round(box.get_position()[1], 6), []).append(box)
    shift = 0.0
    for y in sorted(rows, reverse=True):  # top row first
        row = sorted(rows[y], key=lambda b: b.get_position()[0])
        stagger = len(row) >= min_boxes
        for i, box in enumerate(row):
            x, _ = box.get_position()
            box.set_position((x, y - shift - (drop if stagger and i % 2 else 0.0)))
        shift += drop if stagger else 0.0
    xs = [b.get_position()[0] for b in boxes]
    ys = [b.get_position()[1] for b in boxes]
    ax.set_xlim(min(xs) - margin, max(xs) + margin)
    ax.set_ylim(min(ys) - 0.8, max(ys) + 0.8)
    return ax
