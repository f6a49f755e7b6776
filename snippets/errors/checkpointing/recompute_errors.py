"""Errors: a checkpointed function that saves fewer or more tensors when run
again, and saved tensors unpacked twice inside a checkpoint."""

# raises: recompute-count RuntimeError
# raises: unpack-twice RuntimeError
# raises: recompute-more RuntimeError

# --8<-- [start:recompute-count]
import torch
from torch.utils.checkpoint import checkpoint

calls = 0


def block(x):
    global calls
    calls += 1
    return x.sin().cos() if calls == 1 else x.sin() * 1


x = torch.ones(2, requires_grad=True)
checkpoint(block, x, use_reentrant=False).sum().backward()
# --8<-- [end:recompute-count]

# --8<-- [start:unpack-twice-fix]
import torch
from torch.utils.checkpoint import checkpoint


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 + 0 * x


x = torch.ones(2, requires_grad=True)
out = checkpoint(lambda t: Double.apply(t.sin()), x, use_reentrant=False)
out.sum().backward()
print(x.grad)
assert torch.allclose(x.grad, 2 * torch.cos(torch.ones(2)))
# --8<-- [end:unpack-twice-fix]

# --8<-- [start:unpack-twice]
import torch
from torch.utils.checkpoint import checkpoint


class ReadsTwice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        (again,) = ctx.saved_tensors
        return grad * 2 + 0 * x


x = torch.ones(2, requires_grad=True)
out = checkpoint(lambda t: ReadsTwice.apply(t.sin()), x, use_reentrant=False)
out.sum().backward()
# --8<-- [end:unpack-twice]

# --8<-- [start:recompute-more]
import torch
from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop

calls = 0


def block(x):
    global calls
    calls += 1
    return x.sin() if calls == 1 else x.sin().cos()


x = torch.ones(2, requires_grad=True)
with set_checkpoint_early_stop(False):
    out = checkpoint(block, x, use_reentrant=False)
out.sum().backward()
# --8<-- [end:recompute-more]
