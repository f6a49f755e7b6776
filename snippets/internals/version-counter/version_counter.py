# raises: error RuntimeError
# raises: detached-view RuntimeError
# raises: detach-inplace-view RuntimeError
# raises: metadata-saved RuntimeError
# raises: metadata-requires-grad RuntimeError
"""The version counter: who shares it, what bumps it, and the check it
powers."""

# --8<-- [start:bump]
import torch

base = torch.zeros(4)
view = base[:2]  # (1)!
alias = base.detach()
print("start:              ", base._version, view._version, alias._version)
base.add_(1)  # (2)!
print("after base.add_(1): ", base._version, view._version, alias._version)
view.mul_(2)
print("after view.mul_(2): ", base._version, view._version, alias._version)
_ = base + 1  # (3)!
print("after base + 1:     ", base._version, view._version, alias._version)
assert base._version == view._version == alias._version == 2
# --8<-- [end:bump]

# --8<-- [start:error]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()  # (1)!
y.detach().mul_(2)  # (2)!
assert y._version == 1
y.sum().backward()  # (3)!
# --8<-- [end:error]

# --8<-- [start:detached-view]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()
part = y[1:].detach()  # (1)!
same = part.untyped_storage().data_ptr() == y.untyped_storage().data_ptr()
print("part shares y's storage:", same)
print("versions before:", y._version, part._version)
part.zero_()
print("versions after: ", y._version, part._version)  # (2)!
assert y._version == part._version == 1
y.sum().backward()
# --8<-- [end:detached-view]

# --8<-- [start:detach-inplace-view]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x * 1
v = y[:2]
v.detach_()  # (1)!
# --8<-- [end:detach-inplace-view]

# --8<-- [start:detach-inplace-view-after]
print("v still in the graph:", v.requires_grad, type(v.grad_fn).__name__)
assert v.requires_grad and v.grad_fn is not None  # (1)!
dv = v.detach()  # (2)!
assert not dv.requires_grad and dv.grad_fn is None
# --8<-- [end:detach-inplace-view-after]

# --8<-- [start:metadata]
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x * 1

d = y.detach()
d.resize_(6)  # (1)!
print("resize_: y._version", y._version,
      "| d", tuple(d.shape), "y", tuple(y.shape))
d = y.detach()
d.unsqueeze_(0)
print("unsqueeze_: y._version", y._version,
      "| d", tuple(d.shape), "y", tuple(y.shape))
d = y.detach()
d.t_()
print("t_: y._version", y._version,
      "| d", tuple(d.shape), "y", tuple(y.shape))
assert d.data_ptr() == y.data_ptr()
d = y.detach()
d.set_(torch.zeros(5))
print("set_: y._version", y._version,
      "| d", tuple(d.shape), "y", tuple(y.shape))
assert d.data_ptr() != y.data_ptr()
assert y.shape == (2, 3) and y._version == 4  # (2)!

d = y.detach()
d.resize_(y.shape)  # (3)!
print("resize_ to the same shape: y._version", y._version)
assert y._version == 4
# --8<-- [end:metadata]

# --8<-- [start:metadata-saved]
saved = x.exp()  # (1)!
saved.detach().unsqueeze_(0)  # (2)!
assert saved.shape == (2, 3) and saved._version == 1
saved.sum().backward()
# --8<-- [end:metadata-saved]

# --8<-- [start:metadata-requires-grad]
x.resize_(6)  # (1)!
# --8<-- [end:metadata-requires-grad]

# --8<-- [start:hooks]
from autograd_lens import SavedTensorLedger

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
with SavedTensorLedger():  # (1)!
    y = x.exp()
y.detach().mul_(2)
y.sum().backward()  # (2)!
print("x.grad:", x.grad)
print("true:  ", x.detach().exp())
assert torch.allclose(x.grad, 2 * x.detach().exp())  # (3)!

a = torch.tensor(1.0, requires_grad=True)
pack, unpack = (lambda t: t.clone()), (lambda t: t)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):  # (4)!
    b = a.sin()
saved = b.grad_fn._saved_self
with torch.no_grad():
    saved.add_(1)
print("a._version:", a._version, "| saved._version:", saved._version)
assert a._version == 0 and saved._version == 1
# --8<-- [end:hooks]
