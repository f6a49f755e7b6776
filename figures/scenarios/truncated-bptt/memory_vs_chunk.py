"""Bytes autograd holds when backward() starts, against the chunk length of truncated
BPTT. Measured with SavedTensorLedger on the RNN of snippets/scenarios/truncated-bptt/tbptt.py."""

import matplotlib.pyplot as plt
import torch
from torch import nn

from autograd_lens import SavedTensorLedger
from tools.figure_text import legible

INPUTS = ["tools/figure_text.py"]

T, B, H = 120, 4, 32
CHUNKS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 24, 30, 40, 60, 120]
TEXT = {
    "en": {
        "x": "chunk length k (time steps between h = h.detach())",
        "y": "KiB held by autograd at backward()",
        "title": "Truncated BPTT: memory grows with the chunk, not the sequence",
        "full": f"no truncation (k = T = {T})",
    },
    "zh": {
        "x": "分块长度 k（两次 h = h.detach() 之间的时间步数）",
        "y": "backward() 开始时 autograd 持有的 KiB",
        "title": "截断 BPTT：内存随分块长度增长，而不是随序列长度",
        "full": f"不截断（k = T = {T}）",
    },
}


def measure() -> dict[int, int]:
    torch.manual_seed(0)
    rnn = nn.RNN(input_size=8, hidden_size=H, batch_first=True)
    readout = nn.Linear(H, 1)
    xs, ys = torch.randn(B, T, 8), torch.randn(B, T, 1)
    held = {}
    for k in CHUNKS:
        h = torch.zeros(1, B, H)
        most = 0
        for start in range(0, T, k):
            h = h.detach()
            with SavedTensorLedger() as ledger:
                out, h = rnn(xs[:, start:start + k], h)
                loss = nn.functional.mse_loss(readout(out), ys[:, start:start + k])
            most = max(most, ledger.live_nbytes)
            loss.backward()
        held[k] = most
    return held


def draw(lang: str):
    t = TEXT[lang]
    held = measure()
    ks = list(held)
    kib = [held[k] / 1024 for k in ks]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.plot(ks, kib, marker="o", color="#3f51b5")
    ax.axhline(held[T] / 1024, color="#999999", linestyle="--", linewidth=1)
    ax.annotate(t["full"], (T, held[T] / 1024), xytext=(-10, -14), textcoords="offset points",
                ha="right", fontsize=9, color="#555555")
    ax.set_xlabel(t["x"])
    ax.set_ylabel(t["y"])
    ax.set_title(t["title"], fontsize=11)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    legible(fig)
    fig.tight_layout()
    return legible(fig)
