"""The autograd graph of Post A's first example, z = (x * 2).mean()."""

import matplotlib.pyplot as plt
import torch

from autograd_lens import draw_graph
from figures._phone import for_phone
from tools.figures.legible import legible

INPUTS = ["tools/figures/legible.py"]

TITLE = {
    "en": "The graph recorded for z = (x * 2).mean()",
    "zh": "z = (x * 2).mean() 记录下的计算图",
}


def draw(lang: str, narrow: bool = False):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y.mean()
    fig, ax = plt.subplots(figsize=(3.4, 6.4) if narrow else (5.0, 6.2))  # narrow: a phone
    draw_graph({"z": z}, {"x": x, "y": y}, lang=lang, ax=ax, title=TITLE[lang])
    return legible(for_phone(fig) if narrow else fig)
