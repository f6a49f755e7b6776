"""The autograd graph of the same computation, without and with detach()."""

import matplotlib.pyplot as plt
import torch

from autograd_lens import draw_graph
from figures._phone import for_phone
from tools.figures.legible import legible

INPUTS = ["tools/figures/legible.py"]

TITLES = {
    "en": ("z = (x * 2).mean()", "z = (x.detach() * 2).mean()"),
    "zh": ("z = (x * 2).mean()", "z = (x.detach() * 2).mean()"),
}
SUPTITLE = {
    "en": "The same computation, without and with detach()",
    "zh": "同一个计算，不用与使用 detach()",
}


def draw(lang: str, narrow: bool = False):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z_attached = (x * 2).mean()
    z_detached = (x.detach() * 2).mean()
    if narrow:  # a phone: the two graphs one above the other
        grid = {"height_ratios": [3, 1.4], "hspace": 0.9}  # the legend sits between them
        fig, (left, right) = plt.subplots(2, 1, figsize=(4.2, 8.4), gridspec_kw=grid)
    else:
        fig, (left, right) = plt.subplots(1, 2, figsize=(8.5, 4.4))
    draw_graph({"z": z_attached}, {"x": x}, lang=lang, ax=left, title=TITLES[lang][0])
    draw_graph({"z": z_detached}, {"x": x}, lang=lang, ax=right, title=TITLES[lang][1], legend=False)
    fig.suptitle(SUPTITLE[lang], fontsize=12, y=1.0 if narrow else 1.03)  # clear of the panel titles
    return legible(for_phone(fig) if narrow else fig)
