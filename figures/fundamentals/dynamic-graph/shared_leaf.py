"""A branching graph: the leaf w is used twice, loss = (x * w).sum() + w.pow(2).sum()."""

import matplotlib.pyplot as plt
import torch

from autograd_lens import autograd_graph, draw_graph
from figures._phone import for_phone
from tools.figures.legible import legible

INPUTS = ["tools/figures/legible.py"]

TITLE = {
    "en": "loss = (x * w).sum() + w.pow(2).sum(): w is used twice",
    "zh": "loss = (x * w).sum() + w.pow(2).sum()：w 被用了两次",
}


def draw(lang: str, narrow: bool = False):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    loss = (x * w).sum() + w.pow(2).sum()
    graph = autograd_graph({"loss": loss}, {"x": x, "w": w})
    (w_key,) = [n.key for n in graph.nodes if n.kind == "tensor" and n.label == "w"]
    acc_w = [a for a, b in graph.edges if b == w_key]
    assert len(acc_w) == 1  # one AccumulateGrad node for w ...
    assert sum(1 for _, b in graph.edges if b == acc_w[0]) == 2  # ... with two incoming edges
    fig, ax = plt.subplots(figsize=(3.4, 7.4) if narrow else (6.4, 7.4))  # narrow: a phone
    draw_graph({"loss": loss}, {"x": x, "w": w}, lang=lang, ax=ax, title=TITLE[lang])
    return legible(for_phone(fig) if narrow else fig)
