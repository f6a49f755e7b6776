"""What `total += loss` keeps alive, step by step, in a real loop (counts, no timings).

Left: a loop without backward (an evaluation loop that forgot torch.no_grad(), or losses
collected for a later backward): live saved bytes, measured with SavedTensorLedger.
Right: a training loop with backward() every step: backward frees the saved tensors
(asserted), but `total` still holds every step's backward nodes.
"""

import matplotlib.pyplot as plt
import torch
from torch import nn

from autograd_lens import SavedTensorLedger, autograd_graph
from figures._phone import for_phone
from tools.figures.legible import legible

INPUTS = ["tools/figures/legible.py"]

STEPS = 20
TEXT = {
    "en": {
        "suptitle": "Accumulating the loss: total += loss vs total += loss.item()\n"
        "(MLP 64-128-1, batch 32, float32, CPU)",
        "left": "Loop without backward()",
        "left_y": "saved tensors still alive (KiB)",
        "right": "Training loop, backward() every step",
        "right_y": "backward nodes reachable from total",
        "step": "step",
        "note": "after each backward(), no saved\ntensor is alive with either variant",
        "tensor": "total += loss",
        "item": "total += loss.item()",
    },
    "zh": {
        "suptitle": "累加损失：total += loss 与 total += loss.item()\n"
        "（MLP 64-128-1，批大小 32，float32，CPU）",
        "left": "不调用 backward() 的循环",
        "left_y": "仍存活的保存张量（KiB）",
        "right": "训练循环，每步调用 backward()",
        "right_y": "从 total 可达的反向节点数",
        "step": "步数",
        "note": "两种写法下，每次 backward() 之后\n都没有存活的保存张量",
        "tensor": "total += loss",
        "item": "total += loss.item()",
    },
}


def run(keep: str, backward: bool) -> tuple[list[int], list[int]]:
    """Run STEPS steps; after each, return live saved bytes and nodes reachable from total."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    live_bytes, nodes = [], []
    with SavedTensorLedger() as ledger:
        total = 0.0
        for _ in range(STEPS):
            xb, yb = torch.randn(32, 64), torch.randn(32, 1)
            loss = nn.functional.mse_loss(model(xb), yb)
            if backward:
                opt.zero_grad()
                loss.backward()
                opt.step()
            total += loss if keep == "tensor" else loss.item()
            live_bytes.append(ledger.live_nbytes)
            graph_nodes = 0
            if isinstance(total, torch.Tensor):
                graph_nodes = len(autograd_graph(total).labels("backward"))
            nodes.append(graph_nodes)
    return live_bytes, nodes


def draw(lang: str, narrow: bool = False):
    t = TEXT[lang]
    eval_tensor, _ = run("tensor", backward=False)
    eval_item, _ = run("item", backward=False)
    train_tensor_bytes, train_tensor_nodes = run("tensor", backward=True)
    train_item_bytes, train_item_nodes = run("item", backward=True)
    growth = {b - a for a, b in zip(eval_tensor, eval_tensor[1:])}
    assert len(growth) == 1 and growth.pop() > 0  # the same amount more every step
    assert eval_item == [eval_tensor[0]] * STEPS  # only the current step's graph
    assert set(train_tensor_bytes) == set(train_item_bytes) == {0}
    assert train_item_nodes == [0] * STEPS
    assert all(b > a for a, b in zip(train_tensor_nodes, train_tensor_nodes[1:]))

    steps = list(range(1, STEPS + 1))
    if narrow:  # a phone: one chart above the other
        fig, (left, right) = plt.subplots(2, 1, figsize=(4.2, 6.8))
    else:
        fig, (left, right) = plt.subplots(1, 2, figsize=(7.8, 3.9))
    for ax, tensor_y, item_y, title, ylabel in (
        (left, [b / 1024 for b in eval_tensor], [b / 1024 for b in eval_item], t["left"], t["left_y"]),
        (right, train_tensor_nodes, train_item_nodes, t["right"], t["right_y"]),
    ):
        ax.plot(steps, tensor_y, "o-", color="#c2410c", ms=4, label=t["tensor"])
        ax.plot(steps, item_y, "s-", color="#1d4ed8", ms=4, label=t["item"])
        ax.set_title(title, fontsize=10.5)
        ax.set_xlabel(t["step"])
        ax.set_ylabel(ylabel)
        ax.set_xticks([1, 5, 10, 15, 20])
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8.5, loc="upper left", frameon=False)
    right.text(
        0.97, 0.05, t["note"], transform=right.transAxes, ha="right", va="bottom", fontsize=8, color="#374151"
    )
    fig.suptitle(t["suptitle"], fontsize=11.5)
    if narrow:
        for_phone(fig)
    legible(fig)
    fig.tight_layout()
    return legible(fig)
