"""detach / .data / clone / detach().clone() / copy_ time across sizes, from the committed results."""

import matplotlib.pyplot as plt

from benchmarks.report import finish, median_and_iqr, require
from figures._phone import for_phone

INPUTS = ["benchmarks/results/cpu/detach_vs_clone.json", "benchmarks/report.py", "tools/figures/legible.py"]

LABELS = {
    "detach": "x.detach()",
    "data": "x.data",
    "clone": "x.clone()",
    "detach_clone": "x.detach().clone()",
    "copy_": "dst.copy_(x)",
    "empty_copy_": "empty_like(x).copy_(x)",
}
STYLE = {
    "detach": ("C0", "o"),
    "data": ("C9", "s"),
    "clone": ("C3", "^"),
    "detach_clone": ("C1", "v"),
    "copy_": ("C7", "D"),
    "empty_copy_": ("C4", "P"),
}
TEXT = {
    "zh": {
        "title": "CPU 上的耗时\n（中位数，误差线为四分位距）",
        "x": "元素个数（float32）",
        "y": "每次调用耗时 (s)",
        "ratio_title": "达到的带宽 /\n复制到已分配张量的带宽",
        "ratio_y": "比值（1 = 达到复制的上限）",
        "seed": "博文 B：detach 0.0001 s / clone 0.5 s",
    },
    "en": {
        "title": "Time on CPU\n(median; bars: interquartile range)",
        "x": "elements (float32)",
        "y": "time per call (s)",
        "ratio_title": "achieved bandwidth /\ncopy into a preallocated tensor",
        "ratio_y": "ratio (1 = the copy limit)",
        "seed": "Post B: detach 0.0001 s / clone 0.5 s",
    },
}


def draw(lang: str, narrow: bool = False):
    r = require("detach_vs_clone", "cpu")
    t = TEXT[lang]
    if narrow:  # a phone: one chart above the other
        fig, (ax, ax2) = plt.subplots(2, 1, figsize=(4.4, 9.6), gridspec_kw={"height_ratios": [1.5, 1]})
    else:
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(7.0, 5.2), gridspec_kw={"width_ratios": [1.6, 1]})
    for op, label in LABELS.items():
        cs = [c for c in r["cases"] if c["op"] == op]
        xs = [c["numel"] for c in cs]
        med, err = median_and_iqr(cs)
        color, marker = STYLE[op]
        ax.errorbar(xs, med, yerr=err, label=label, color=color, marker=marker, ms=4, capsize=2, lw=1.2)
    ax.scatter([1e8, 1e8], [1e-4, 0.5], marker="x", color="k", s=40, zorder=5, label=t["seed"])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(t["x"])
    ax.set_ylabel(t["y"])
    ax.set_title(t["title"], fontsize=10.5)
    ax.legend(fontsize=8.5, loc="upper left", framealpha=0.9)
    ax.grid(True, which="major", alpha=0.3)
    for op in ("clone", "detach_clone", "empty_copy_"):
        xs = [d["numel"] for d in r["derived"]]
        color, marker = STYLE[op]
        ax2.plot(
            xs,
            [d[f"{op.rstrip('_')}_over_copy_bandwidth"] for d in r["derived"]],
            color=color,
            marker=marker,
            ms=4,
            label=LABELS[op],
        )
    ax2.axhline(1.0, color="0.5", lw=0.8, ls="--")
    ax2.set_xscale("log")
    top = max(d[k] for d in r["derived"] for k in d if k.endswith("_over_copy_bandwidth"))
    ax2.set_ylim(0, max(1.2, top * 1.05))
    ax2.set_xlabel(t["x"])
    ax2.set_ylabel(t["ratio_y"])
    ax2.set_title(t["ratio_title"], fontsize=10.5)
    ax2.legend(fontsize=8.5)
    ax2.grid(True, alpha=0.3)
    if narrow:
        for_phone(fig)
    return finish(fig, r, lang)
