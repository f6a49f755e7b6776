# raises: detach-view-error RuntimeError
"""Reference card: every property of detach() and detach_(), asserted."""

# --8<-- [start:signature]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
d = y.detach()  # (1)!
assert torch.detach(y).data_ptr() == d.data_ptr()  # (2)!
assert d is not y
assert d.grad_fn is None and not d.requires_grad and d.is_leaf
assert y.grad_fn is not None  # (3)!
print("d:", d, "| leaf:", d.is_leaf, "| requires_grad:", d.requires_grad)
# --8<-- [end:signature]

# --8<-- [start:shared]
assert d.data_ptr() == y.data_ptr()  # (1)!
assert d.shape == y.shape and d.stride() == y.stride()
assert d.dtype == y.dtype and d.device == y.device
before = y._version
d.add_(1)  # (2)!
assert y._version == d._version == before + 1
assert y.tolist() == [3.0, 5.0, 7.0]
x.grad = torch.ones(3)
assert x.detach().grad is None  # (3)!
print("y:", y.tolist(), "| versions:", y._version, d._version)
alias = y.detach()
alias.unsqueeze_(0)  # (4)!
print("alias.unsqueeze_(0): alias", tuple(alias.shape), "| y", tuple(y.shape))
assert alias.shape == (1, 3) and y.shape == (3,) and y.stride() == (1,)
assert alias.data_ptr() == y.data_ptr()
# --8<-- [end:shared]

# --8<-- [start:views]
base = torch.zeros(4, requires_grad=True) * 1
v = base[:2]  # (1)!
dv = v.detach()
assert dv.data_ptr() == v.data_ptr()  # (2)!
assert dv.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
assert dv.grad_fn is None and v.grad_fn is not None
assert not dv._is_view()  # (3)!
recorded = base.grad_fn.name()
dv.fill_(5)  # (4)!
assert base.grad_fn.name() == recorded
assert base.tolist() == [5.0, 5.0, 0.0, 0.0]
assert dv._version == base._version
print("base after dv.fill_(5):", base.tolist())
# --8<-- [end:views]

# --8<-- [start:forward-ad]
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    primal = torch.tensor([1.0, 2.0])
    dual = fwAD.make_dual(primal, torch.ones(2))
    assert fwAD.unpack_dual(dual).tangent is not None
    assert fwAD.unpack_dual(dual.clone()).tangent is not None  # (1)!
    assert fwAD.unpack_dual(dual.detach()).tangent is None  # (2)!
    print("tangent after detach():", fwAD.unpack_dual(dual.detach()).tangent)
# --8<-- [end:forward-ad]

# --8<-- [start:grad-modes]
with torch.no_grad():
    n = y.detach()  # (1)!
with torch.inference_mode():
    i = y.detach()  # (2)!
    fresh = torch.ones(2)
assert n.data_ptr() == i.data_ptr() == y.data_ptr()
assert not n.requires_grad and not i.requires_grad
assert not i.is_inference()
assert fresh.is_inference() and fresh.detach().is_inference()  # (3)!
print(
    "inside inference_mode:",
    i.is_inference(),
    "| inference input:",
    fresh.detach().is_inference(),
)
# --8<-- [end:grad-modes]

# --8<-- [start:detach-inplace]
z = x * 3
same = z
z.detach_()  # (1)!
print("same object:", z is same, "| grad_fn:", z.grad_fn,
      "| requires_grad:", z.requires_grad)
assert z is same and z.grad_fn is None and not z.requires_grad
# --8<-- [end:detach-inplace]

# --8<-- [start:detach-view-error]
view = (x * 3)[:2]
view.detach_()  # (1)!
# --8<-- [end:detach-view-error]

# --8<-- [start:detach-view-fix]
safe = view.detach()  # (1)!
print("safe.grad_fn:", safe.grad_fn,
      "| view.grad_fn:", type(view.grad_fn).__name__)
assert safe.grad_fn is None and view.grad_fn is not None
# --8<-- [end:detach-view-fix]
