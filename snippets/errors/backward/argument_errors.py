"""Errors: torch.autograd.backward given gradients of another length."""

# raises: tensors-gradients-count RuntimeError

# --8<-- [start:tensors-gradients-count]
import torch

w = torch.ones(2, requires_grad=True)
a, b = w * 2, w * 3
torch.autograd.backward([a, b], [torch.ones(2)])
# --8<-- [end:tensors-gradients-count]
