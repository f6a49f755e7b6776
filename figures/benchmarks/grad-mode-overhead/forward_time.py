"""Forward time of a small MLP and a small CNN under four grad modes, from the committed results."""

import matplotlib.pyplot as plt

from benchmarks.report import finish, label_bars, median_and_iqr, require
from figures._phone import for_phone, wrap

INPUTS = [
    "benchmarks/results/cpu/grad_mode_overhead.json",
    "benchmarks/report.py",
    "tools/figures/legible.py",
]

MODES = ("grad", "grad_detach", "no_grad", "inference_mode")
LABELS = {
    "grad": "grad",
    "grad_detach": "grad + .detach()",
    "no_grad": "no_grad()",
    "inference_mode": "inference_mode()",
}
TEXT = {
    "zh": {
        "mlp": "小型 MLP",
        "cnn": "小型 CNN",
        "y": "一次前向的耗时 (ms，中位数)",
        "title": "CPU 上一次前向传播的耗时（误差线为四分位距）",
    },
    "en": {
        "mlp": "small MLP",
        "cnn": "small CNN",
        "y": "one forward pass (ms, median)",
        "title": "One forward pass on CPU (bars: interquartile range)",
    },
}


def draw(lang: str, narrow: bool = False):
    r = require("grad_mode_overhead", "cpu")
    t = TEXT[lang]
    if narrow:  # a phone: one chart above the other
        fig, axes = plt.subplots(2, 1, figsize=(4.4, 8.4))
    else:
        fig, axes = plt.subplots(1, 2, figsize=(7.0, 5.0))
    for ax, model in zip(axes, ("mlp", "cnn")):
        cs = {c["mode"]: c for c in r["cases"] if c["model"] == model}
        med, err = median_and_iqr([cs[m] for m in MODES], 1e3)
        bars = ax.bar(range(len(MODES)), med, yerr=err, capsize=3, color=["C3", "C1", "C0", "C2"])
        label_bars(ax, bars)
        ax.set_xticks(range(len(MODES)), [LABELS[m] for m in MODES], rotation=20, ha="right", fontsize=9)
        ax.set_title(t[model], fontsize=10)
        ax.set_ylabel(t["y"])
        ax.grid(True, axis="y", alpha=0.3)
    if narrow:
        for_phone(fig)
    return finish(fig, r, lang, wrap(t["title"]) if narrow else t["title"])
