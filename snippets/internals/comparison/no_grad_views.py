# raises: views RuntimeError
"""Inside no_grad(), views and explicit requires_grad still give tensors
that require grad: no_grad() is not a detach() for a block of code."""

# --8<-- [start:views]
import torch
from torch import nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    out = x * 1  # (1)!
    view = x[:2]  # (2)!
    made = torch.ones(2, requires_grad=True)  # (3)!
    param = nn.Parameter(torch.ones(2))
same = view.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
print("x * 1: requires_grad", out.requires_grad)
print("x[:2]: requires_grad", view.requires_grad)
print("   _base is x", view._base is x, "| shares storage", same)
print("ones(..., requires_grad=True):", made.requires_grad)
print("nn.Parameter:", param.requires_grad)
assert not out.requires_grad and out.grad_fn is None
assert view.requires_grad and view._is_view() and view._base is x and same
assert made.requires_grad and param.requires_grad
view.mul_(2)  # (4)!
# --8<-- [end:views]

# --8<-- [start:detached-view]
d = x.detach()[:2]
d.mul_(2)  # (1)!
print("x.detach()[:2] after mul_(2):", d, "| x:", x.detach())
assert not d.requires_grad
assert torch.equal(x.detach(), torch.tensor([2.0, 4.0, 3.0]))
# --8<-- [end:detached-view]
