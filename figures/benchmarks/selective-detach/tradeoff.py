"""Full graph vs selective detach vs checkpointing on a small Transformer encoder."""

import matplotlib.pyplot as plt
import numpy as np

from benchmarks.report import finish, label_bars, median_and_iqr, require
from figures._phone import for_phone, wrap

INPUTS = ["benchmarks/results/cpu/selective_detach.json", "benchmarks/report.py", "tools/figures/legible.py"]

VARIANTS = ("full", "selective_detach", "checkpoint")
LABELS = {
    "zh": {"full": "完整计算图", "selective_detach": "选择性 detach", "checkpoint": "激活检查点"},
    "en": {"full": "full graph", "selective_detach": "selective detach", "checkpoint": "checkpointing"},
}
TEXT = {
    "zh": {
        "saved": "反向传播开始时保存的字节 (MB)",
        "time": "前向 + 反向的耗时 (ms，中位数)",
        "err": "梯度与完整计算图的相对误差",
        "title": "小型 Transformer 编码器（CPU）",
    },
    "en": {
        "saved": "bytes held for backward (MB)",
        "time": "forward + backward (ms, median)",
        "err": "relative gradient error vs full graph",
        "title": "Small Transformer encoder (CPU)",
    },
}
COLORS = ["C3", "C1", "C0"]


def draw(lang: str, narrow: bool = False):
    r = require("selective_detach", "cpu")
    t, lab = TEXT[lang], LABELS[lang]
    cs = {c["variant"]: c for c in r["cases"]}
    # Two panels above, the per-layer error across the bottom: wide enough to read.
    if narrow:  # a phone: the three charts one above the other
        fig = plt.figure(figsize=(4.4, 12.0))
        grid = fig.add_gridspec(3, 1)
        a1, a2, a3 = (fig.add_subplot(grid[i, 0]) for i in range(3))
    else:
        fig = plt.figure(figsize=(7.0, 7.8))
        grid = fig.add_gridspec(2, 2)
        a1, a2 = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
        a3 = fig.add_subplot(grid[1, :])
    saved = [cs[v]["saved"]["live_nbytes_at_backward"] / 1e6 for v in VARIANTS]
    med, iqr = median_and_iqr([cs[v] for v in VARIANTS], 1e3)
    for ax, values, err, ylabel in ((a1, saved, None, t["saved"]), (a2, med, iqr, t["time"])):
        bars = ax.bar(range(3), values, yerr=err, capsize=3, color=COLORS)
        label_bars(ax, bars)
        ax.set_xticks(range(3), [lab[v] for v in VARIANTS], fontsize=9, rotation=15)
        ax.set_title(ylabel, fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
    groups = list(cs["full"]["grad_relative_error_vs_full"])
    x = np.arange(len(groups))
    for i, v in enumerate(("selective_detach", "checkpoint")):
        vals = [cs[v]["grad_relative_error_vs_full"][g] for g in groups]
        bars = a3.bar(x + (i - 0.5) * 0.38, vals, width=0.38, color=COLORS[i + 1], label=lab[v])
        label_bars(a3, bars, fontsize=8.5, fmt="{:.2g}".format)
    a3.set_xticks(x, groups, fontsize=9)
    a3.set_ylim(0, 1.15)
    a3.set_title(t["err"], fontsize=10)
    a3.legend(fontsize=9)
    a3.grid(True, axis="y", alpha=0.3)
    if narrow:
        for_phone(fig)
    return finish(fig, r, lang, wrap(t["title"]) if narrow else t["title"])
