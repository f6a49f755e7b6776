"""Errors: torch.utils.checkpoint."""

# warns: reentrant-implicit UserWarning
# raises: reentrant-grad RuntimeError

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
