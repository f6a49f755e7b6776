# raises: refuses-sparse RuntimeError
# raises: refuses-integer RuntimeError
"""Assigning x.data = y swaps the data under x but keeps its version
counter (still shared with its views) and its autograd flags; it refuses
a different kind of tensor, and integers for a tensor that requires grad.
"""

# --8<-- [start:keeps]
import torch

x = torch.zeros(3)
view = x[:2]
x.add_(1)
x.add_(1)
version = x._version
x.data = torch.full((3,), 7.0)  # (1)!
print("x._version:", version, "->", x._version)
assert x._version == version  # (2)!
x.add_(1)
print("after x.add_(1): x", x._version, "| old view", view._version)
assert x._version == view._version == version + 1  # (3)!
print("x:", x)
print("old view:", view)
assert torch.equal(x, torch.full((3,), 8.0))
assert torch.equal(view, torch.full((2,), 2.0))

p = torch.ones(3, requires_grad=True)
p.data = torch.zeros(3)
assert p.requires_grad and p.is_leaf  # (4)!
# --8<-- [end:keeps]

# --8<-- [start:refuses-sparse]
p = torch.ones(3, requires_grad=True)
p.data = torch.zeros(3).to_sparse()  # (1)!
# --8<-- [end:refuses-sparse]

# --8<-- [start:refuses-integer]
assert p.layout == torch.strided and p.dtype == torch.float32  # (1)!
p.data = torch.zeros(3, dtype=torch.long)  # (2)!
# --8<-- [end:refuses-integer]

assert p.dtype == torch.float32 and p.requires_grad  # unchanged again
