"""FAQ: detach(), .data, clone() and torch.tensor(t)."""

# raises: detach-vs-data RuntimeError
# warns: copy-construct-warning UserWarning
# raises: detach-inplace-view RuntimeError

# --8<-- [start:detach-vs-data]
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()  # (1)!
y.data.mul_(2)  # (2)!
y.sum().backward()
print("gradient after .data.mul_:", x.grad)
s = torch.tensor([0.0, 1.0, 2.0]).sigmoid()
assert not torch.allclose(x.grad, s * (1 - s))

x.grad = None
y = x.sigmoid()
y.detach().mul_(2)  # (3)!
y.sum().backward()
# --8<-- [end:detach-vs-data]

# --8<-- [start:detach-shares-memory]
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.detach()  # (1)!
print("same storage:", b.data_ptr() == a.data_ptr())
assert b.data_ptr() == a.data_ptr()
b += 1  # (2)!
print("a after b += 1:", a)
assert a.tolist() == [2.0, 3.0]
c = a.detach().clone()  # (3)!
c += 1
print("a after c += 1:", a.tolist(), "| c:", c.tolist())
assert c.data_ptr() != a.data_ptr() and a.tolist() == [2.0, 3.0]
# --8<-- [end:detach-shares-memory]

# --8<-- [start:copy-construct-warning]
import torch

src = torch.tensor([1.0, 2.0], requires_grad=True) * 2
copy = torch.tensor(src)  # (1)!
print("torch.tensor(src): requires_grad", copy.requires_grad,
      "| grad_fn", copy.grad_fn)
assert not copy.requires_grad and copy.data_ptr() != src.data_ptr()

quiet = src.detach().clone()  # (2)!
assert torch.equal(quiet, copy) and quiet.grad_fn is None
leaf = src.detach().clone().requires_grad_(True)  # (3)!
print("new leaf:", leaf.is_leaf, leaf.requires_grad)
assert leaf.is_leaf and leaf.requires_grad
# --8<-- [end:copy-construct-warning]

# --8<-- [start:detach-inplace-view]
import torch

x = torch.ones(4, requires_grad=True)
v = (x * 2)[:2]  # (1)!
d = v.detach()  # (2)!
print("v.detach(): grad_fn", d.grad_fn, "| v still has",
      type(v.grad_fn).__name__)
assert d.grad_fn is None and v.grad_fn is not None
v.detach_()  # (3)!
# --8<-- [end:detach-inplace-view]
