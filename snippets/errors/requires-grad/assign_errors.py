"""Errors: assigning .grad or .data something that cannot be there."""

# raises: own-grad RuntimeError
# raises: data-not-tensor TypeError

# --8<-- [start:own-grad-fix]
import torch

w = torch.ones(3, requires_grad=True)
w.grad = w.detach().clone()
w.data = torch.zeros(3)
print(w.grad, w)
assert w.grad is not w and w.grad.sum() == 3 and w.sum() == 0
# --8<-- [end:own-grad-fix]

# --8<-- [start:own-grad]
import torch

w = torch.ones(3, requires_grad=True)
w.grad = w
# --8<-- [end:own-grad]

# --8<-- [start:data-not-tensor]
import torch

w = torch.ones(3)
w.data = 0
# --8<-- [end:data-not-tensor]
