"""Inside no_grad(), views and explicit requires_grad still give tensors
that require grad: no_grad() is not a detach() for a block of code."""

# --8<-- [start:views]
import textwrap

import torch
from torch import nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    out = x * 1  # (1)!
    view = x[:2]  # (2)!
    made = torch.ones(2, requires_grad=True)  # (3)!
    param = nn.Parameter(torch.ones(2))
same = view.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
print("x * 1:        requires_grad", out.requires_grad)
print("x[:2]:        requires_grad", view.requires_grad,
      "| _base is x", view._base is x, "| shares storage", same)
print("ones(..., requires_grad=True):", made.requires_grad)
print("nn.Parameter:                 ", param.requires_grad)
assert not out.requires_grad and out.grad_fn is None
assert view.requires_grad and view._is_view() and view._base is x and same
assert made.requires_grad and param.requires_grad
try:
    view.mul_(2)  # (4)!
except RuntimeError as err:
    print(textwrap.fill("RuntimeError: " + str(err).split(". ")[0] + ".", 78))
else:
    raise AssertionError("in-place on a no_grad view should raise")
d = x.detach()[:2]
d.mul_(1)  # (5)!
assert not d.requires_grad
# --8<-- [end:views]
