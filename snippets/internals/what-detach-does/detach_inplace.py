"""detach_() on a base leaves the views made before it in the graph; on a
tensor saved for backward it raises only if the tensor was saved as an
input, not as the output of its own node."""

# --8<-- [start:base-views]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = x * 1
view = base.narrow(0, 1, 2)  # (1)!
base.detach_()
print("base: requires_grad", base.requires_grad, "| grad_fn", base.grad_fn)
print("view: requires_grad", view.requires_grad,
      "| grad_fn", type(view.grad_fn).__name__, "| _base is base",
      view._base is base)
assert not base.requires_grad and base.grad_fn is None
assert view.requires_grad and view.grad_fn is not None  # (2)!
assert view._base is base
view.sum().backward()
print("x.grad through the view:", x.grad)
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

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x * 1
loss = (y * y).sum()  # (3)!
y.detach_()
try:
    loss.backward()
except RuntimeError as err:
    print("saved as input, then detach_():")
    print("    RuntimeError:", str(err).split(",")[0])
else:
    raise AssertionError("a saved input detached in place should raise")
# --8<-- [end:saved-output]
