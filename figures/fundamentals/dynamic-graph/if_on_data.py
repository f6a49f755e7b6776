"""An `if` on data: the same function records two different graphs."""

import matplotlib.pyplot as plt
import torch

from autograd_lens import autograd_graph, draw_graph
from figures._phone import for_phone
from tools.figures.legible import legible

INPUTS = ["tools/figures/legible.py"]

SUPTITLE = {
    "en": "The same f(a, n_steps), two calls, two graphs",
    "zh": "同一个 f(a, n_steps)，调用两次，记下两张不同的图",
}
PANEL = {
    "en": {1: "f(a, 1): sum < 0, so exp", 3: "f(a, 3): exp, then sum > 0, so * 2 twice"},
    "zh": {1: "f(a, 1)：和 < 0，走 exp", 3: "f(a, 3)：先 exp，之后和 > 0，两次 * 2"},
}


def f(t, n_steps):
    for _ in range(n_steps):
        t = t * 2 if t.sum() > 0 else t.exp()
    return t.sum()


def draw(lang: str, narrow: bool = False):
    a = torch.tensor([1.0, -3.0], requires_grad=True)
    outs = {n: f(a, n) for n in (1, 3)}
    shapes = [autograd_graph({"out": o}, {"a": a}).labels("backward") for o in outs.values()]
    assert shapes == [
        ["SumBackward0", "ExpBackward0"],
        ["SumBackward0", "MulBackward0", "MulBackward0", "ExpBackward0"],
    ]
    if narrow:  # a phone: the two graphs one above the other
        grid = {"height_ratios": [1, 1.5], "hspace": 0.55}  # the legend sits between them
        fig, axes = plt.subplots(2, 1, figsize=(4.4, 13.0), gridspec_kw=grid)
    else:
        fig, axes = plt.subplots(1, 2, figsize=(9.0, 7.6))
    for i, (ax, (n, out)) in enumerate(zip(axes, outs.items())):
        draw_graph({"out": out}, {"a": a}, lang=lang, ax=ax, title=PANEL[lang][n], legend=i == 0)
    if not narrow:
        axes[0].set_ylim(axes[1].get_ylim())  # same vertical scale: rows line up
    fig.suptitle(SUPTITLE[lang], fontsize=12)
    return legible(for_phone(fig) if narrow else fig)
