# warns: reentrant-no-grad-input UserWarning
"""API inventory, torch.utils.checkpoint: trading memory for recomputation."""

# --8<-- [start:checkpoint]
from functools import partial

import torch
from torch.autograd.graph import saved_tensors_hooks
from torch.utils.checkpoint import checkpoint

runs = []


def block(x):
    runs.append("forward")
    return x.sin().sin().sin()


def saved_by(run):
    saved = []

    def pack(t):
        saved.append(t)
        return t

    x = torch.ones(4, requires_grad=True)
    with saved_tensors_hooks(pack, lambda t: t):
        y = run(x)  # (1)!
    y.sum().backward()
    return len(saved), x.grad


plain, g_plain = saved_by(block)
runs.clear()
ckpt, g_ckpt = saved_by(partial(checkpoint, block, use_reentrant=False))
print("saved tensors:", plain, "->", ckpt)
print("block ran:", len(runs))
assert ckpt < plain and len(runs) == 2  # (2)!
assert torch.equal(g_plain, g_ckpt)
# --8<-- [end:checkpoint]

# --8<-- [start:reentrant-no-grad-input]
import torch
from torch.utils.checkpoint import checkpoint

layer = torch.nn.Linear(2, 2)
x = torch.ones(1, 2)  # (1)!
out = checkpoint(layer, x, use_reentrant=True)
print("reentrant: out.requires_grad =", out.requires_grad)
assert not out.requires_grad
out = checkpoint(layer, x, use_reentrant=False)  # (2)!
out.sum().backward()
assert layer.weight.grad is not None
# --8<-- [end:reentrant-no-grad-input]

# --8<-- [start:preserve-rng-state]
import torch
from torch.utils.checkpoint import checkpoint

drop = torch.nn.Dropout(0.5)
x = torch.ones(8, requires_grad=True)
torch.manual_seed(0)
drop(x).sum().backward()
expected, x.grad = x.grad, None
torch.manual_seed(0)
checkpoint(drop, x, use_reentrant=False,
           preserve_rng_state=True).sum().backward()  # (1)!
print("same dropout mask in the recomputation:",
      torch.equal(x.grad, expected))
assert torch.equal(x.grad, expected)
# --8<-- [end:preserve-rng-state]

# --8<-- [start:sequential]
import torch
from torch.utils.checkpoint import checkpoint_sequential

torch.manual_seed(0)
net = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(4)])
x = torch.ones(2, 4, requires_grad=True)
out = checkpoint_sequential(net, segments=2, input=x,
                            use_reentrant=False)  # (1)!
out.sum().backward()
assert all(p.grad is not None for p in net.parameters())
print("every layer got a gradient:",
      all(p.grad is not None for p in net.parameters()))
# --8<-- [end:sequential]

# --8<-- [start:detach-variable]
import torch
from torch.utils.checkpoint import detach_variable

h = torch.ones(2, requires_grad=True) * 2
(d,) = detach_variable(inputs=(h,))  # (1)!
assert d.is_leaf and d.requires_grad and d.grad_fn is None
(d * 3).sum().backward()
print("d.grad:", d.grad)
print("h is untouched:", h.grad_fn is not None)
# --8<-- [end:detach-variable]

# --8<-- [start:selective]
from collections import Counter
from functools import partial

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.checkpoint import (
    CheckpointPolicy,
    checkpoint,
    create_selective_checkpoint_contexts,
)


class CountOps(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops[func.__name__.split(".")[0]] += 1
        return func(*args, **(kwargs or {}))


def policy(ctx, op, *args, **kwargs):
    if op == torch.ops.aten.exp.default:
        return CheckpointPolicy.MUST_SAVE  # (1)!
    return CheckpointPolicy.PREFER_RECOMPUTE


def block(x):
    return x.exp().exp()


for context_fn in (None, partial(create_selective_checkpoint_contexts,
                                 policy)):
    x = torch.ones(3, requires_grad=True)
    options = {"context_fn": context_fn} if context_fn else {}
    y = checkpoint(block, x, use_reentrant=False, **options)
    with CountOps() as seen:
        y.sum().backward()  # (2)!
    print("exp recomputed in backward:", seen.ops["exp"])
assert seen.ops["exp"] == 0
# --8<-- [end:selective]
