"""Which network receives gradients in each GAN step, computed with the same tiny G and D
as snippets/scenarios/gan/step.py (the norm of all .grad of a network, or none)."""

import matplotlib.pyplot as plt
import torch
from matplotlib.patches import Rectangle
from torch import nn

from figures._phone import for_phone
from tools.figures.legible import legible

INPUTS = ["tools/figures/legible.py"]

TEXT = {
    "en": {
        "rows": [
            "D step: D(fake.detach())",
            "G step: D(fake)",
            "D step without detach: D(fake)",
            "G step, Post A: D(G(z).detach())",
        ],
        "cols": ["generator G", "discriminator D"],
        "none": "no .grad",
        "norm": "‖grad‖ = {:.3f}",
        "title": "Who receives a gradient in each step",
    },
    "zh": {
        "rows": [
            "D 步：D(fake.detach())",
            "G 步：D(fake)",
            "D 步忘了 detach：D(fake)",
            "G 步，博文 A：D(G(z).detach())",
        ],
        "cols": ["生成器 G", "判别器 D"],
        "none": "无 .grad",
        "norm": "‖grad‖ = {:.3f}",
        "title": "每一步中谁收到了梯度",
    },
}


def _norm(module: nn.Module) -> float | None:
    grads = [p.grad for p in module.parameters() if p.grad is not None]
    return None if not grads else float(torch.cat([g.flatten() for g in grads]).norm())


def measure() -> list[tuple[float | None, float | None]]:
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    bce = nn.BCEWithLogitsLoss()
    real = torch.randn(32, 2) + 3.0
    ones, zeros = torch.ones(32, 1), torch.zeros(32, 1)
    z = torch.randn(32, 4)
    losses = [
        lambda: bce(D(real), ones) + bce(D(G(z).detach()), zeros),
        lambda: bce(D(G(z)), ones),
        lambda: bce(D(real), ones) + bce(D(G(z)), zeros),
        lambda: bce(D(G(z).detach()), ones),
    ]
    out = []
    for loss in losses:
        G.zero_grad(set_to_none=True)
        D.zero_grad(set_to_none=True)
        loss().backward()
        out.append((_norm(G), _norm(D)))
    # what the page says about this figure
    assert out[0][0] is None and out[3][0] is None and None not in (out[1][0], out[2][0])
    assert out[0][1] == out[2][1]  # detach in the D step leaves D's gradient unchanged
    return out


def draw(lang: str, narrow: bool = False):
    t = TEXT[lang]
    rows = measure()
    # narrow (a phone): each row's label on a line of its own, above its two cells
    step = 1.45 if narrow else 1
    fig, ax = plt.subplots(figsize=(3.4, 5.4) if narrow else (7.8, 3.4))
    for i, row in enumerate(rows):
        if narrow:
            y = (len(rows) - 1 - i) * step
            ax.text(0.02, y + 1.12, t["rows"][i], ha="left", va="center", fontsize=9)
        for j, value in enumerate(row):
            y = (len(rows) - 1 - i) * step
            color = "#c8e6c9" if value is not None else "#eeeeee"
            ax.add_patch(Rectangle((j, y), 0.96, 0.9, facecolor=color, edgecolor="white"))
            label = t["none"] if value is None else t["norm"].format(value)
            ax.text(
                j + 0.48,
                y + 0.45,
                label,
                ha="center",
                va="center",
                fontsize=9,
                color="#1b5e20" if value is not None else "#777777",
            )
    ax.set_xlim(0, 2)
    ax.set_ylim(0, (len(rows) - 1) * step + (1.4 if narrow else 1))
    ax.set_xticks([0.48, 1.48], t["cols"])
    if narrow:
        ax.set_yticks([])
    else:
        ax.set_yticks([len(rows) - 1 - i + 0.45 for i in range(len(rows))], t["rows"], fontsize=9)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for side in ("left", "bottom", "top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_title(t["title"], fontsize=11, pad=24)
    if narrow:
        for_phone(fig)
    legible(fig)
    fig.tight_layout()
    return legible(fig)
