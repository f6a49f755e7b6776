"""Seed 003's segment loop: the graph the loss has, with and without h.detach()."""

import matplotlib.pyplot as plt
import torch
from torch import nn

from autograd_lens import draw_graph
from tools.figure_text import legible

INPUTS = ["tools/figure_text.py"]

TITLES = {
    "en": ("hidden.append(h.detach())", "hidden.append(h)"),
    "zh": ("hidden.append(h.detach())", "hidden.append(h)"),
}
SUPTITLE = {
    "en": "The loss of the segment loop: segment.weight is reached only without detach()",
    "zh": "分段循环的损失：只有不 detach 时，损失才到达 segment.weight",
}


def _loss(detach: bool, segment: nn.Linear, aggregate: nn.Linear, sequence: torch.Tensor):
    hidden = []
    for seg in sequence:
        h = segment(seg)
        hidden.append(h.detach() if detach else h)
    return aggregate(torch.stack(hidden)).sum()


def draw(lang: str):
    torch.manual_seed(0)
    segment, aggregate = nn.Linear(2, 2, bias=False), nn.Linear(2, 1, bias=False)
    sequence = torch.randn(2, 1, 2)  # two segments
    names = {"segment.weight": segment.weight, "aggregate.weight": aggregate.weight}
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 6.2))
    draw_graph(
        {"loss": _loss(True, segment, aggregate, sequence)}, names, lang=lang, ax=left, title=TITLES[lang][0]
    )
    draw_graph(
        {"loss": _loss(False, segment, aggregate, sequence)},
        names,
        lang=lang,
        ax=right,
        title=TITLES[lang][1],
        legend=False,
    )
    fig.suptitle(SUPTITLE[lang], fontsize=12)
    return legible(fig)
