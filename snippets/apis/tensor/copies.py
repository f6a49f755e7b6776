# raises: deepcopy-nonleaf RuntimeError
# raises: detach-inplace-view RuntimeError
"""API inventory, torch.Tensor: copies, and whether they stay in the graph."""

# --8<-- [start:detach-inplace]
import torch

w = torch.ones(2, requires_grad=True)
z = w * 3
early = z[:1]
z.detach_()  # (1)!
assert z.grad_fn is None and not z.requires_grad and z.is_leaf
early.sum().backward()  # (2)!
print("z.grad_fn:", z.grad_fn)
print("w.grad through the earlier view:", w.grad)
assert w.grad.tolist() == [3.0, 0.0]
# --8<-- [end:detach-inplace]

# --8<-- [start:detach-inplace-view]
v = (w * 3)[:1]
v.detach_()
# --8<-- [end:detach-inplace-view]

# --8<-- [start:clone]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
c = w.clone()  # (1)!
assert c.data_ptr() != w.data_ptr() and not c.is_leaf
(c * 3).sum().backward()
assert w.grad.tolist() == [3.0, 3.0]
snapshot = w.detach().clone()  # (2)!
assert not snapshot.requires_grad
print("clone:", type(c.grad_fn).__name__)
print("snapshot:", snapshot.grad_fn)
# --8<-- [end:clone]

# --8<-- [start:to]
import torch

w = torch.ones(2, requires_grad=True)
d = w.to(torch.float64)  # (1)!
assert d.grad_fn is not None and not d.is_leaf
d.sum().backward()
assert w.grad.dtype == torch.float32
assert w.to(torch.float32) is w and w.cpu() is w  # (2)!
leaf = torch.ones(2, dtype=torch.float64).requires_grad_()  # (3)!
print("w.to(float64) is a leaf:", d.is_leaf)
print("leaf:", leaf.is_leaf)
# --8<-- [end:to]

# --8<-- [start:copy]
import torch

src = torch.tensor([1.0, 2.0], requires_grad=True)
dst = torch.zeros(2)
before = dst._version
dst.copy_(src * 3)  # (1)!
assert dst.requires_grad and dst._version == before + 1
dst.sum().backward()
print("src.grad:", src.grad)
assert src.grad.tolist() == [3.0, 3.0]
ema = torch.zeros(2)
with torch.no_grad():
    ema.copy_(src)  # (2)!
assert not ema.requires_grad and ema.data_ptr() != src.data_ptr()
# --8<-- [end:copy]

# --8<-- [start:new-tensor]
import torch

w = torch.ones(2, requires_grad=True)
n = w.new_tensor([5.0, 6.0])  # (1)!
z = w.new_zeros(3, requires_grad=True)
assert n.is_leaf and not n.requires_grad
assert z.is_leaf and z.grad_fn is None
assert n.dtype == w.dtype and n.device == w.device
print("new_tensor:", n)
print("new_zeros leaf:", z.is_leaf)
# --8<-- [end:new-tensor]

# --8<-- [start:deepcopy]
import copy

import torch

w = torch.ones(2, requires_grad=True)
w.grad = torch.full((2,), 3.0)
twin = copy.deepcopy(w)  # (1)!
assert twin.requires_grad and twin.is_leaf
assert twin.grad.tolist() == [3.0, 3.0]
assert twin.data_ptr() != w.data_ptr()
print("deepcopy of a leaf: requires_grad", twin.requires_grad)
# --8<-- [end:deepcopy]

# --8<-- [start:deepcopy-nonleaf]
copy.deepcopy(w * 2)
# --8<-- [end:deepcopy-nonleaf]

# --8<-- [start:as-subclass]
import torch


class Tagged(torch.Tensor):
    pass


w = torch.ones(2, requires_grad=True)
t = (w * 2).as_subclass(Tagged)  # (1)!
assert type(t) is Tagged and t.grad_fn is not None
t.sum().backward()
print("w.grad:", w.grad)
assert w.grad.tolist() == [2.0, 2.0]
# --8<-- [end:as-subclass]
