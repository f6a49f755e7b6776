"""Errors: requires_grad_() on an integer tensor, and apply_/map_/map2_ on
a tensor that requires grad."""

# raises: int-requires-grad-method RuntimeError
# raises: apply-requires-grad RuntimeError
# raises: map-requires-grad RuntimeError
# raises: map2-requires-grad RuntimeError

# --8<-- [start:int-requires-grad-method]
import torch

counts = torch.tensor([1, 2, 3])
counts.requires_grad_()
# --8<-- [end:int-requires-grad-method]

# --8<-- [start:apply-fix]
import torch

w = torch.ones(3, requires_grad=True)
w.detach().apply_(lambda v: v * 2)
print(w)
assert w.tolist() == [2.0, 2.0, 2.0] and w.requires_grad
# --8<-- [end:apply-fix]

# --8<-- [start:apply-requires-grad]
import torch

w = torch.ones(3, requires_grad=True)
w.apply_(lambda v: v * 2)
# --8<-- [end:apply-requires-grad]

# --8<-- [start:map-requires-grad]
import torch

w = torch.ones(3, requires_grad=True)
w.map_(torch.ones(3), lambda a, b: a + b)
# --8<-- [end:map-requires-grad]

# --8<-- [start:map2-requires-grad]
import torch

w = torch.ones(3, requires_grad=True)
w.map2_(torch.ones(3), torch.ones(3), lambda a, b, c: a + b + c)
# --8<-- [end:map2-requires-grad]
