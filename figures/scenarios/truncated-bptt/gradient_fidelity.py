"""Cosine between the truncated-BPTT gradient and the full-BPTT gradient of a small
RNN, against the chunk length: the gradient function of
snippets/scenarios/truncated-bptt/fidelity.py (its ``fidelity`` section), run for every
chunk length that divides the sequence."""

import matplotlib.pyplot as plt
from torch.nn.functional import cosine_similarity

from figures._phone import for_phone, wrap
from tools.figures.legible import legible
from tools.snippets.reuse import run_sections

INPUTS = [
    "snippets/scenarios/truncated-bptt/fidelity.py",
    "tools/figures/legible.py",
    "tools/snippets/reuse.py",
]
SNIPPET = INPUTS[0]  # the snippet whose code measures

T = 60  # the snippet's sequence length (measure() checks it)
CHUNKS = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60]
TEXT = {
    "en": {
        "x": "chunk length k (time steps between h = h.detach())",
        "y": "cosine to the full-BPTT gradient",
        "title": "Truncated BPTT: the RNN's gradient approaches the full one as k grows",
        "full": f"k = T = {T}: full BPTT",
    },
    "zh": {
        "x": "分块长度 k（两次 h = h.detach() 之间的时间步数）",
        "y": "与完整 BPTT 梯度的余弦相似度",
        "title": "截断 BPTT：k 越大，RNN 的梯度越接近完整梯度",
        "full": f"k = T = {T}：完整 BPTT",
    },
}


def measure() -> dict[int, float]:
    """Cosine to the full-BPTT gradient per chunk length, by the snippet's own code."""
    snippet = run_sections(SNIPPET, "fidelity")
    assert snippet["T"] == T, f"{SNIPPET} has T = {snippet['T']}: update T here"
    grad, full = snippet["rnn_gradient"], snippet["full"]
    return {k: cosine_similarity(grad(k), full, dim=0).item() for k in CHUNKS}


def draw(lang: str, narrow: bool = False):
    t = TEXT[lang]
    cosine = measure()
    ks = list(cosine)
    fig, ax = plt.subplots(figsize=(3.4, 4.8) if narrow else (7.5, 4.2))  # narrow: a phone
    ax.plot(ks, list(cosine.values()), marker="o", color="#3f51b5")
    ax.axhline(1.0, color="#999999", linestyle="--", linewidth=1)
    # a phone: the note sits low on the right, clear of the curve, with an arrow to k = T
    where = {"xytext": (0.97, 0.3), "textcoords": "axes fraction"} if narrow else {}
    ax.annotate(
        t["full"],
        (T, cosine[T]),
        **(where or {"xytext": (-10, -16), "textcoords": "offset points"}),
        ha="right",
        fontsize=9,
        color="#555555",
        **({"arrowprops": {"arrowstyle": "->", "color": "#999999"}} if narrow else {}),
    )
    ax.set_xscale("log")
    shown = [1, 2, 5, 10, 20, 60] if narrow else ks  # a phone: fewer labels, all points
    ax.set_xticks(shown, [str(k) for k in shown])
    ax.minorticks_off()
    ax.set_xlabel(wrap(t["x"]) if narrow else t["x"])
    ax.set_ylabel(wrap(t["y"], 30) if narrow else t["y"])
    ax.set_title(t["title"], fontsize=11)
    ax.set_ylim(0.88, 1.01)
    ax.grid(alpha=0.3)
    legible(for_phone(fig) if narrow else fig)
    fig.tight_layout()
    return legible(fig)
