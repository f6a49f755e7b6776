"""Forward pass of a small MLP and a small CNN under four grad modes."""

from __future__ import annotations

import contextlib

import torch
from torch import nn

from autograd_lens import SavedTensorLedger

from .common import Context, budget, time_many

# Timing: one forward takes 1-6 ms, so 8 s per model gives each of the four modes 15+
# blocks of 20-80 calls; the differences measured are a few percent, hence more blocks.
FORWARD_BUDGET_S = 8.0
FORWARD_MIN_BLOCKS = 15

TITLE = "grad-mode overhead"


def build(kind: str, tiny: bool) -> tuple[nn.Module, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    if kind == "mlp":
        width, batch = (64, 4) if tiny else (1024, 64)
        model = nn.Sequential(
            nn.Linear(width // 2, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 10)
        )
        x = torch.randn(batch, width // 2, generator=g)
    else:
        side, batch = (16, 2) if tiny else (64, 16)
        model = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(64, 10),
        )
        x = torch.randn(batch, 3, side, side, generator=g)
    return model, x


MODES = {
    "grad": (contextlib.nullcontext, False),
    "grad_detach": (contextlib.nullcontext, True),
    "no_grad": (torch.no_grad, False),
    "inference_mode": (torch.inference_mode, False),
}


def run(ctx: Context) -> dict:
    cases = []
    shapes = {}
    for kind in ("mlp", "cnn"):
        model, x = build(kind, ctx.tiny)
        model, x = model.to(ctx.device), x.to(ctx.device)
        shapes[kind] = {"input": list(x.shape), "parameters": sum(p.numel() for p in model.parameters())}
        forwards = {}
        for mode, (manager, detach) in MODES.items():

            def forward(manager=manager, detach=detach, model=model, x=x):
                with manager():
                    out = model(x)
                return out.detach() if detach else out

            forwards[mode] = forward
        ctx.progress(f"{kind}: {', '.join(MODES)}")
        timings = time_many(forwards, ctx, **budget(ctx, FORWARD_BUDGET_S, FORWARD_MIN_BLOCKS))
        for mode, forward in forwards.items():
            with SavedTensorLedger() as ledger:
                out = forward()
            case = {
                "model": kind,
                "mode": mode,
                "timing": timings[mode],
                "saved": {
                    "count": ledger.count,
                    "nbytes": ledger.nbytes,
                    "activation_nbytes": ledger.activation_nbytes,
                },
                "output_requires_grad": out.requires_grad,
                "output_is_inference": out.is_inference(),
            }
            del out
            cases.append(case)
    derived = []
    for kind in ("mlp", "cnn"):
        by = {c["mode"]: c["timing"]["median"] for c in cases if c["model"] == kind}
        derived.append({"model": kind, **{f"{m}_over_grad": by[m] / by["grad"] for m in by}})
    return {
        "params": {
            "models": shapes,
            "dtype": "float32",
            "modes": {
                "grad": "out = model(x)",
                "grad_detach": "out = model(x).detach()",
                "no_grad": "with torch.no_grad(): out = model(x)",
                "inference_mode": "with torch.inference_mode(): out = model(x)",
            },
        },
        "cases": cases,
        "derived": derived,
    }
