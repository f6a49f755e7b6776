"""Feature maps of a tiny CNN on a synthetic image, captured with a forward hook
(detach().clone(), before the in-place ReLU can change them)."""

import matplotlib.pyplot as plt
import torch
from torch import nn

from tools.figures.legible import legible

INPUTS = ["tools/figures/legible.py"]

TEXT = {
    "en": {
        "input": "input (synthetic)",
        "title": "conv1 feature maps, captured by a forward hook",
        "names": ["vertical edges", "horizontal edges", "Laplacian", "box blur"],
    },
    "zh": {
        "input": "输入（合成图像）",
        "title": "前向钩子捕获的 conv1 特征图",
        "names": ["竖直边缘", "水平边缘", "拉普拉斯", "均值模糊"],
    },
}


def synthetic_image(n: int = 48) -> torch.Tensor:
    yy, xx = torch.meshgrid(
        torch.arange(n, dtype=torch.float32), torch.arange(n, dtype=torch.float32), indexing="ij"
    )
    disc = ((xx - 16) ** 2 + (yy - 18) ** 2 < 100).float()
    square = ((xx > 28) & (xx < 42) & (yy > 26) & (yy < 40)).float()
    stripes = 0.5 * (((xx + yy) // 4) % 2) * (yy < 10)
    return (disc + square + stripes).clamp(max=1.0)[None, None]


def tiny_cnn() -> nn.Sequential:
    conv = nn.Conv2d(1, 4, 3, padding=1, bias=False)
    sobel = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]])
    lap = torch.tensor([[0.0, 1, 0], [1, -4, 1], [0, 1, 0]])
    with torch.no_grad():
        conv.weight.copy_(torch.stack([sobel, sobel.T, lap, torch.full((3, 3), 1 / 9)])[:, None])
    return nn.Sequential(conv, nn.ReLU(inplace=True), nn.Conv2d(4, 8, 3, padding=1))


def draw(lang: str, narrow: bool = False):
    t = TEXT[lang]
    torch.manual_seed(0)
    model = tiny_cnn()
    image = synthetic_image()
    captured = {}
    model[0].register_forward_hook(lambda m, i, o: captured.__setitem__("conv1", o.detach().clone()))
    with torch.no_grad():
        model(image)
    maps = captured["conv1"][0].numpy()
    if narrow:  # a phone: the input and four maps in two rows of three
        fig, grid = plt.subplots(2, 3, figsize=(4.4, 3.4))
        axes = list(grid.flat)
        axes.pop().set_axis_off()
    else:
        fig, axes = plt.subplots(1, 5, figsize=(9, 2.4))
    axes[0].imshow(image[0, 0].numpy(), cmap="gray")
    axes[0].set_title(t["input"], fontsize=11)
    for ax, fmap, name in zip(axes[1:], maps, t["names"]):
        lim = abs(fmap).max()
        ax.imshow(fmap, cmap="RdBu_r", vmin=-lim, vmax=lim)
        ax.set_title(name, fontsize=11)
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle(t["title"], fontsize=12)
    legible(fig)
    fig.tight_layout(h_pad=2.5 if narrow else None)
    return legible(fig)
