# raises: saved-input-error RuntimeError
"""detach_() on a base leaves the views made before it in the graph; on a
tensor saved for backward it raises only for a non-leaf saved as an input:
not for a leaf input, nor for the output of its own node."""

# --8<-- [start:base-views]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = x * 1
view = base.narrow(0, 1, 2)  # (1)!
base.detach_()
print("base: requires_grad", base.requires_grad)
print("view: requires_grad", view.requires_grad)
print("view.grad_fn:", type(view.grad_fn).__name__)
assert not base.requires_grad and base.grad_fn is None
assert view.requires_grad and view.grad_fn is not None  # (2)!
assert view._base is base
view.sum().backward()
print("x.grad:", x.grad)
assert torch.equal(x.grad, torch.tensor([0.0, 1.0, 1.0]))
# --8<-- [end:base-views]

# --8<-- [start:saved-output]
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x.exp()  # (1)!
loss = (y * 1).sum()
y.detach_()
loss.backward()  # (2)!
print("saved as output, then detach_(): x.grad =", x.grad)
assert torch.allclose(x.grad, x.detach().exp())

a = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
loss = (a * w).sum()  # (3)!
a.detach_()
loss.backward()
print("leaf saved as input, then detach_(): a.grad =", a.grad,
      " w.grad =", w.grad)
assert a.grad is None and torch.equal(w.grad, torch.tensor([1.0, 2.0]))
# --8<-- [end:saved-output]

# --8<-- [start:saved-input-error]
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x * 1
assert not y.is_leaf  # (1)!
loss = (y * y).sum()
y.detach_()
loss.backward()
# --8<-- [end:saved-input-error]
