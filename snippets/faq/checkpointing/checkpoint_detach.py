# raises: checkpoint-detach RuntimeError
"""FAQ: why reentrant checkpointing detaches its inputs before recomputing,
and what would happen without that detach."""

# --8<-- [start:checkpoint-detach]
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from autograd_lens import SavedTensorLedger

torch.manual_seed(0)
first = nn.Linear(4, 4)
block = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))
x = torch.randn(2, 4)

with SavedTensorLedger() as plain:
    block(first(x)).sum().backward()
expected = first.weight.grad.clone()
first.zero_grad()
with SavedTensorLedger() as ckpt:
    out = checkpoint(block, first(x), use_reentrant=True)  # (1)!
out.sum().backward()  # (2)!
print("checkpoint saves fewer tensors:", ckpt.count < plain.count)
print("same gradient for the layer before:",
      torch.allclose(first.weight.grad, expected))
assert ckpt.count < plain.count
assert torch.allclose(first.weight.grad, expected)


class Recompute(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, h, detach):
        ctx.fn, ctx.detach = fn, detach
        ctx.save_for_backward(h)
        with torch.no_grad():
            return fn(h)

    @staticmethod
    def backward(ctx, grad):
        h, = ctx.saved_tensors
        if ctx.detach:
            h = h.detach().requires_grad_()  # (3)!
        with torch.enable_grad():
            torch.autograd.backward(ctx.fn(h), grad)  # (4)!
        return None, h.grad if ctx.detach else None, None


first.zero_grad()
Recompute.apply(block, first(x), True).sum().backward()
print("hand-written, with detach: same gradient:",
      torch.allclose(first.weight.grad, expected))
assert torch.allclose(first.weight.grad, expected)

first.zero_grad()
Recompute.apply(block, first(x), False).sum().backward()  # (5)!
# --8<-- [end:checkpoint-detach]
