"""Selective detach vs activation checkpointing vs the full graph on a Transformer encoder."""

from __future__ import annotations

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from autograd_lens import SavedTensorLedger

from .common import Context, budget, cuda_peak, time_many

# Timing: one step takes 0.15-0.3 s on 2 CPU cores, so 15 s gives each of the three
# variants 11+ blocks (a stable median and IQR) in ~40 s in all.
STEP_BUDGET_S = 15.0
STEP_MIN_BLOCKS = 11

TITLE = "selective detach vs checkpointing"
VARIANTS = ("full", "selective_detach", "checkpoint")


def dims(tiny: bool) -> dict:
    if tiny:
        return {"d_model": 32, "nhead": 2, "dim_feedforward": 64, "num_layers": 2, "batch": 2, "seq": 8}
    return {"d_model": 256, "nhead": 4, "dim_feedforward": 1024, "num_layers": 4, "batch": 16, "seq": 128}


class Model(nn.Module):
    def __init__(self, d: dict) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(
            d["d_model"], d["nhead"], d["dim_feedforward"], dropout=0.0, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, d["num_layers"], enable_nested_tensor=False)
        self.head = nn.Linear(d["d_model"], 1)
        self.cut = d["num_layers"] // 2  # selective detach: cut the graph after this many layers
        self.kept: list[int] = []  # bytes of the layer inputs that checkpointing keeps

    def forward(self, x: torch.Tensor, variant: str) -> torch.Tensor:
        h = x
        for i, layer in enumerate(self.encoder.layers):
            if variant == "selective_detach" and i == self.cut:
                h = h.detach()  # (lower layers get no gradient from this loss)
            if variant == "checkpoint":
                self.kept.append(h.numel() * h.element_size())
                h = checkpoint(layer, h, use_reentrant=False)
            else:
                h = layer(h)
        return self.head(h).pow(2).mean()


def groups(model: Model) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, _ in model.named_parameters():
        key = ".".join(name.split(".")[:3]) if name.startswith("encoder.layers.") else name.split(".")[0]
        out.setdefault(key.replace("encoder.layers.", "layer"), []).append(name)
    return out


def make(ctx: Context):
    d = dims(ctx.tiny)
    torch.manual_seed(0)
    model = Model(d).to(ctx.device)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(d["batch"], d["seq"], d["d_model"], generator=g).to(ctx.device)
    return model, x


def _grads(model: Model) -> dict[str, torch.Tensor]:
    return {
        n: (p.grad.detach().clone() if p.grad is not None else torch.zeros_like(p)).cpu()
        for n, p in model.named_parameters()
    }


def _relative_errors(
    g: dict[str, torch.Tensor], ref: dict[str, torch.Tensor], parts: dict[str, list[str]]
) -> dict[str, float]:
    """Per parameter group: |g - ref| / |ref| (Frobenius norms over the group)."""
    out = {}
    for group, names in parts.items():
        num = sum(((g[n] - ref[n]).double() ** 2).sum().item() for n in names) ** 0.5
        den = sum((ref[n].double() ** 2).sum().item() for n in names) ** 0.5
        out[group] = num / den if den else 0.0
    return out


def run(ctx: Context) -> dict:
    model, x = make(ctx)
    cases = []
    grads = {}
    steps = {}
    for variant in VARIANTS:
        ctx.progress(variant)
        model.zero_grad(set_to_none=True)
        model.kept.clear()
        with SavedTensorLedger() as ledger:
            loss = model(x, variant)
            live = ledger.live_nbytes  # held by the graph when backward starts
        saved = {
            "count": ledger.count,
            "live_nbytes_at_backward": live,
            "nbytes": ledger.nbytes,
            "activation_nbytes": ledger.activation_nbytes,
            "checkpoint_kept_input_nbytes": sum(model.kept),
        }
        loss.backward()
        grads[variant] = _grads(model)
        case = {"variant": variant, "loss": loss.item(), "saved": saved}

        def step(variant=variant):
            model.zero_grad(set_to_none=True)
            model(x, variant).backward()
            model.kept.clear()

        if ctx.cuda:
            case["memory"] = cuda_peak(step, ctx)
        steps[variant] = step
        cases.append(case)
    ctx.progress(f"step time: {', '.join(VARIANTS)}")
    timings = time_many(steps, ctx, **budget(ctx, STEP_BUDGET_S, STEP_MIN_BLOCKS))
    model.kept.clear()
    for case in cases:
        case["timing"] = timings[case["variant"]]
    parts = groups(model)
    for case in cases:
        case["grad_relative_error_vs_full"] = _relative_errors(grads[case["variant"]], grads["full"], parts)
    by = {c["variant"]: c for c in cases}
    derived = {
        f"{v}_{k}": by[v][src][k2] / by["full"][src][k2]
        for v in VARIANTS
        for k, src, k2 in (
            ("time_over_full", "timing", "median"),
            ("saved_over_full", "saved", "live_nbytes_at_backward"),
        )
    }
    return {"params": _params(dims(ctx.tiny), parts), "cases": cases, "derived": derived}


def _params(d: dict, parts: dict[str, list[str]]) -> dict:
    return {
        **d,
        "dropout": 0.0,
        "dtype": "float32",
        "loss": "head(encoder(x)).pow(2).mean()",
        "step": "zero_grad, forward, backward (no optimizer)",
        "selective_detach": f"hidden state detached before layer {d['num_layers'] // 2}",
        "checkpoint": "each layer wrapped in torch.utils.checkpoint.checkpoint(use_reentrant=False)",
        "groups": parts,
    }
