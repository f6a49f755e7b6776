"""The autograd graph of the same computation, without and with detach()."""

import matplotlib.pyplot as plt
import torch

from autograd_lens import draw_graph
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


def draw(lang: str):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z_attached = (x * 2).mean()
    z_detached = (x.detach() * 2).mean()
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.5, 4.4))
    draw_graph({"z": z_attached}, {"x": x}, lang=lang, ax=left, title=TITLES[lang][0])
    draw_graph({"z": z_detached}, {"x": x}, lang=lang, ax=right, title=TITLES[lang][1], legend=False)
    fig.suptitle(SUPTITLE[lang], fontsize=12, y=1.03)  # clear of the panel titles
    return legible(fig)
