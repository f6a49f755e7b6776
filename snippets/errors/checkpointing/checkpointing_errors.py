"""Errors: torch.utils.checkpoint."""

# warns: reentrant-implicit UserWarning
# warns: reentrant-implicit-sequential UserWarning
# raises: reentrant-grad RuntimeError
# raises: recompute-mismatch RuntimeError

# --8<-- [start:reentrant-fix]
import torch
from torch.utils.checkpoint import checkpoint

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = checkpoint(torch.sin, w * 2, use_reentrant=False)
(g,) = torch.autograd.grad(y.sum(), w)
print(g)
assert torch.allclose(g, 2 * torch.cos(w.detach() * 2))
# --8<-- [end:reentrant-fix]

# --8<-- [start:reentrant-implicit]
import torch
from torch.utils.checkpoint import checkpoint

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = checkpoint(torch.sin, w * 2)
# --8<-- [end:reentrant-implicit]

# --8<-- [start:reentrant-grad]
import torch
from torch.utils.checkpoint import checkpoint

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = checkpoint(torch.sin, w * 2, use_reentrant=True)
torch.autograd.grad(y.sum(), w)
# --8<-- [end:reentrant-grad]

# --8<-- [start:recompute-fix]
import torch
from torch.utils.checkpoint import checkpoint


def block(x, n):
    return x[:n].sin()


w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = checkpoint(block, w, 2, use_reentrant=False)
y.sum().backward()
print(w.grad)
assert w.grad[2].item() == 0.0
# --8<-- [end:recompute-fix]

# --8<-- [start:recompute-mismatch]
import torch
from torch.utils.checkpoint import checkpoint

calls = []


def block(x):
    calls.append(1)
    return x[: len(calls)].sin()


w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = checkpoint(block, w, use_reentrant=False)
y.sum().backward()
# --8<-- [end:recompute-mismatch]

# --8<-- [start:reentrant-implicit-sequential]
import torch
from torch.utils.checkpoint import checkpoint_sequential

model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
y = checkpoint_sequential(model, 2, torch.ones(1, 2, requires_grad=True))
# --8<-- [end:reentrant-implicit-sequential]
