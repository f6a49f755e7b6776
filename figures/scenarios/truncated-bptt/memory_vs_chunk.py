"""Bytes autograd holds when backward() starts, against the chunk length of truncated
BPTT: the training loop of snippets/scenarios/truncated-bptt/tbptt.py (its ``setup``
section, SavedTensorLedger inside), run for more chunk lengths than the page shows."""

import matplotlib.pyplot as plt

from figures._phone import for_phone, wrap
from tools.figures.legible import legible
from tools.snippets.reuse import run_sections

INPUTS = ["snippets/scenarios/truncated-bptt/tbptt.py", "tools/figures/legible.py", "tools/snippets/reuse.py"]
SNIPPET = INPUTS[0]  # the snippet whose code measures

T = 120  # the snippet's sequence length (measure() checks it)
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
    """Bytes held at backward() per chunk length, by the snippet's own training loop."""
    snippet = run_sections(SNIPPET, "setup")
    assert snippet["T"] == T, f"{SNIPPET} has T = {snippet['T']}: update T here"
    return {k: snippet["train_chunks"](k) for k in CHUNKS}


def draw(lang: str, narrow: bool = False):
    t = TEXT[lang]
    held = measure()
    ks = list(held)
    kib = [held[k] / 1024 for k in ks]
    fig, ax = plt.subplots(figsize=(3.4, 4.8) if narrow else (7.5, 4.2))  # narrow: a phone
    ax.plot(ks, kib, marker="o", color="#3f51b5")
    ax.axhline(held[T] / 1024, color="#999999", linestyle="--", linewidth=1)
    ax.annotate(
        t["full"],
        (T, held[T] / 1024),
        xytext=(-10, -14),
        textcoords="offset points",
        ha="right",
        fontsize=9,
        color="#555555",
    )
    ax.set_xlabel(wrap(t["x"]) if narrow else t["x"])
    ax.set_ylabel(wrap(t["y"], 30) if narrow else t["y"])
    ax.set_title(t["title"], fontsize=11)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    legible(for_phone(fig) if narrow else fig)
    fig.tight_layout()
    return legible(fig)
