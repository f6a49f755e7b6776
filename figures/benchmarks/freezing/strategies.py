"""Four freezing strategies on a small CNN: bytes saved for backward and step time."""

import matplotlib.pyplot as plt

from benchmarks.report import fmt_num, provenance_line, require

INPUTS = ["benchmarks/results/cpu/freezing.json", "benchmarks/report.py"]

STRATEGIES = ("full", "requires_grad_false", "detach", "no_grad")
LABELS = {
    "zh": {"full": "全部训练", "requires_grad_false": "requires_grad_(False)", "detach": "特征 .detach()",
           "no_grad": "no_grad() 包住主干网络"},
    "en": {"full": "full fine-tune", "requires_grad_false": "requires_grad_(False)", "detach": "features .detach()",
           "no_grad": "no_grad() backbone"},
}
TEXT = {
    "zh": {"saved": "反向传播开始时计算图保存的字节 (MB)", "time": "一步训练的耗时 (ms，中位数)",
           "title": "冻结主干网络的四种写法（CPU）"},
    "en": {"saved": "bytes held for backward when it starts (MB)", "time": "one training step (ms, median)",
           "title": "Four ways to freeze a backbone (CPU)"},
}
COLORS = ["C3", "C0", "C1", "C2"]


def draw(lang: str):
    r = require("freezing", "cpu")
    t, lab = TEXT[lang], LABELS[lang]
    cs = {c["strategy"]: c for c in r["cases"]}
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4.4))
    saved = [cs[s]["saved"]["live_nbytes_at_backward"] / 1e6 for s in STRATEGIES]
    med = [cs[s]["timing"]["median"] * 1e3 for s in STRATEGIES]
    lo = [(cs[s]["timing"]["median"] - cs[s]["timing"]["q1"]) * 1e3 for s in STRATEGIES]
    hi = [(cs[s]["timing"]["q3"] - cs[s]["timing"]["median"]) * 1e3 for s in STRATEGIES]
    for ax, values, err, ylabel in ((a1, saved, None, t["saved"]), (a2, med, [lo, hi], t["time"])):
        bars = ax.bar(range(4), values, yerr=err, capsize=3, color=COLORS)
        for b, v, h in zip(bars, values, err[1] if err else [0] * len(values)):
            ax.annotate(fmt_num(v), (b.get_x() + b.get_width() / 2, v + h), ha="center", va="bottom",
                        fontsize=8, xytext=(0, 2), textcoords="offset points")
        ax.set_xticks(range(4), [lab[s] for s in STRATEGIES], rotation=12, fontsize=8)
        ax.set_ylabel(ylabel, fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(t["title"], fontsize=11)
    fig.text(0.01, 0.01, provenance_line(r, lang), fontsize=7.5, color="0.35")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig
