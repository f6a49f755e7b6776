"""Four ways to train only the head of a small CNN: memory and step time."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from autograd_lens import SavedTensorLedger

from .common import Context, budget, cuda_peak, time_many

# Timing: one training step takes 60-160 ms on 2 CPU cores, so 15 s gives each of the
# four strategies 11+ blocks of a few steps (a stable median and IQR) in ~30 s in all.
STEP_BUDGET_S = 15.0
STEP_MIN_BLOCKS = 11

TITLE = "freezing strategies"
TINY_DIMS = (8, 2, 16)  # width, batch, image side: the test suite's run
FULL_DIMS = (32, 32, 64)
STRATEGIES = ("full", "requires_grad_false", "detach", "no_grad")


class Net(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        w = width
        self.backbone = nn.Sequential(
            nn.Conv2d(3, w, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(w, w, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(w, 2 * w, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(2 * w, 2 * w, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.LazyLinear(128), nn.ReLU(), nn.Linear(128, 10))

    def forward(self, x: torch.Tensor, strategy: str) -> torch.Tensor:
        if strategy == "no_grad":
            with torch.no_grad():
                f = self.backbone(x)
        else:
            f = self.backbone(x)
        if strategy == "detach":
            f = f.detach()
        return self.head(f)


def _dims(ctx: Context) -> tuple[int, int, int]:
    return TINY_DIMS if ctx.tiny else FULL_DIMS


def make(strategy: str, ctx: Context):
    width, batch, side = _dims(ctx)
    torch.manual_seed(0)
    net = Net(width)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(batch, 3, side, side, generator=g)
    y = torch.randint(0, 10, (batch,), generator=g)
    with torch.no_grad():
        net(x, "full")  # materialize the lazy layer
    net, x, y = net.to(ctx.device), x.to(ctx.device), y.to(ctx.device)
    if strategy == "requires_grad_false":
        net.backbone.requires_grad_(False)
    params = net.parameters() if strategy == "full" else net.head.parameters()
    params = [p for p in params if p.requires_grad]
    opt = torch.optim.SGD(params, lr=0.01)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(net(x, strategy), y)
        loss.backward()
        opt.step()
        return loss

    return net, x, y, step


def _saved(strategy: str, ctx: Context) -> tuple[dict, dict[str, torch.Tensor]]:
    """Bytes saved for backward in one step's forward; and the head's gradients."""
    net, x, y, _ = make(strategy, ctx)
    after_backbone = []
    hook = net.backbone.register_forward_hook(lambda *_: after_backbone.append(ledger.live_nbytes))
    with SavedTensorLedger() as ledger:
        loss = F.cross_entropy(net(x, strategy), y)
        live_before_backward = ledger.live_nbytes
    hook.remove()
    loss.backward()
    grads = {n: p.grad.detach().clone() for n, p in net.head.named_parameters()}
    return (
        {
            "count": ledger.count,
            "nbytes": ledger.nbytes,
            "activation_nbytes": ledger.activation_nbytes,
            "live_nbytes_at_backward": live_before_backward,
            "live_nbytes_after_backbone": after_backbone[0],
        },
        {k: v.cpu() for k, v in grads.items()},
    )


def run(ctx: Context) -> dict:
    cases = []
    head_grads = {}
    steps = {}
    for strategy in STRATEGIES:
        ctx.progress(f"{strategy}: saved tensors")
        saved, head_grads[strategy] = _saved(strategy, ctx)
        net, x, y, step = make(strategy, ctx)
        case = {
            "strategy": strategy,
            "saved": saved,
            "trainable_parameters": sum(p.numel() for p in net.parameters() if p.requires_grad),
        }
        if ctx.cuda:
            case["memory"] = cuda_peak(step, ctx)
        steps[strategy] = step
        cases.append(case)
    ctx.progress(f"step time: {', '.join(STRATEGIES)}")
    timings = time_many(steps, ctx, **budget(ctx, STEP_BUDGET_S, STEP_MIN_BLOCKS))
    for case in cases:
        case["timing"] = timings[case["strategy"]]
    ref = head_grads["requires_grad_false"]
    for case in cases:
        g = head_grads[case["strategy"]]
        case["head_grad_max_abs_diff_vs_requires_grad_false"] = max(
            (g[k] - ref[k]).abs().max().item() for k in ref
        )
    by = {c["strategy"]: c for c in cases}
    derived = {
        "requires_grad_false_over_full_saved_bytes": by["requires_grad_false"]["saved"][
            "live_nbytes_at_backward"
        ]
        / by["full"]["saved"]["live_nbytes_at_backward"],
        "requires_grad_false_over_full_time": by["requires_grad_false"]["timing"]["median"]
        / by["full"]["timing"]["median"],
        "detach_over_requires_grad_false_time": by["detach"]["timing"]["median"]
        / by["requires_grad_false"]["timing"]["median"],
        "detach_over_requires_grad_false_saved_bytes": by["detach"]["saved"]["live_nbytes_at_backward"]
        / by["requires_grad_false"]["saved"]["live_nbytes_at_backward"],
    }
    width, batch, side = _dims(ctx)
    return {
        "params": {
            "width": width,
            "batch": batch,
            "input": [batch, 3, side, side],
            "optimizer": "SGD(lr=0.01)",
            "step": "zero_grad, forward, cross_entropy, backward, step",
            "strategies": {
                "full": "all parameters trained",
                "requires_grad_false": "net.backbone.requires_grad_(False)",
                "detach": "features = backbone(x).detach()",
                "no_grad": "with torch.no_grad(): features = backbone(x)",
            },
        },
        "cases": cases,
        "derived": derived,
    }
