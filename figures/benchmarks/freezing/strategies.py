"""Four freezing strategies on a small CNN: bytes saved for backward and step time."""

import matplotlib.pyplot as plt
import numpy as np

from benchmarks.report import finish, label_bars, median_and_iqr, require
from figures._phone import for_phone, wrap

INPUTS = ["benchmarks/results/cpu/freezing.json", "benchmarks/report.py", "tools/figures/legible.py"]

STRATEGIES = ("full", "requires_grad_false", "detach", "no_grad")
LABELS = {
    "zh": {
        "full": "全部训练",
        "requires_grad_false": "requires_grad_(False)",
        "detach": "特征 .detach()",
        "no_grad": "no_grad() 包住主干网络",
    },
    "en": {
        "full": "full fine-tune",
        "requires_grad_false": "requires_grad_(False)",
        "detach": "features .detach()",
        "no_grad": "no_grad() backbone",
    },
}
TEXT = {
    "zh": {
        "mid": "主干网络刚算完时",
        "end": "反向传播开始时",
        "saved": "计算图持有的字节 (MB)",
        "time": "一步训练的耗时 (ms，中位数)",
        "title": "冻结主干网络的四种写法（CPU）",
    },
    "en": {
        "mid": "right after the backbone",
        "end": "when backward starts",
        "saved": "bytes held by the graph (MB)",
        "time": "one training step (ms, median)",
        "title": "Four ways to freeze a backbone (CPU)",
    },
}
COLORS = ["C3", "C0", "C1", "C2"]


def draw(lang: str, narrow: bool = False):
    r = require("freezing", "cpu")
    t, lab = TEXT[lang], LABELS[lang]
    cs = {c["strategy"]: c for c in r["cases"]}
    if narrow:  # a phone: one chart above the other
        fig, (a1, a2) = plt.subplots(2, 1, figsize=(4.4, 8.8))
    else:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(7.0, 5.2))
    mid = [cs[s]["saved"]["live_nbytes_after_backbone"] / 1e6 for s in STRATEGIES]
    end = [cs[s]["saved"]["live_nbytes_at_backward"] / 1e6 for s in STRATEGIES]
    x = np.arange(4)
    for i, (values, hatch) in enumerate(((mid, "//"), (end, ""))):
        bars = a1.bar(
            x + (i - 0.5) * 0.38,
            values,
            width=0.38,
            color=COLORS,
            hatch=hatch,
            edgecolor="white",
            label=t["mid"] if i == 0 else t["end"],
        )
        label_bars(a1, bars, fontsize=8.5)
    a1.set_ylabel(t["saved"], fontsize=10)
    a1.set_ylim(0, max(mid + end) * 1.3)  # room for the legend above the bars
    leg = a1.legend(fontsize=9, loc="upper right", ncols=1)
    for handle in leg.legend_handles:
        handle.set_facecolor("0.6")
    med, err = median_and_iqr([cs[s] for s in STRATEGIES], 1e3)
    bars = a2.bar(x, med, yerr=err, capsize=3, color=COLORS)
    label_bars(a2, bars)
    a2.set_ylabel(t["time"], fontsize=10)
    for ax in (a1, a2):
        ax.set_xticks(x, [lab[s] for s in STRATEGIES], rotation=30, ha="right", fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
    if narrow:
        for_phone(fig)
    return finish(fig, r, lang, wrap(t["title"]) if narrow else t["title"])
