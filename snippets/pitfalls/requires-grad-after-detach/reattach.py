"""requires_grad_() after detach makes a new leaf; nothing reconnects the
graph."""

# --8<-- [start:seed-002]
import torch

torch.manual_seed(0)
x = torch.rand(3, requires_grad=True)
y = x.detach()
z = y * 2
print("z.requires_grad:", z.requires_grad)
assert not z.requires_grad and z.grad_fn is None

y.requires_grad_()  # (1)!
w = y * 3
print("w.requires_grad:", w.requires_grad)
print("w.grad_fn:", type(w.grad_fn).__name__)
assert w.requires_grad
w.sum().backward()
print("y.is_leaf:", y.is_leaf, " y.grad:", y.grad)
print("x.grad:", x.grad)  # (2)!
assert y.is_leaf and x.grad is None
# --8<-- [end:seed-002]

# --8<-- [start:detach-underscore]
y2 = x.detach()
y2.detach_()  # (1)!
print("after detach_(): requires_grad =", y2.requires_grad, " grad_fn =",
      y2.grad_fn)
assert y2.grad_fn is None and not y2.requires_grad
# --8<-- [end:detach-underscore]

# --8<-- [start:fix]
x.grad = None
w = x * 3  # (1)!
w.sum().backward()
print("x.grad:", x.grad)
assert torch.equal(x.grad, torch.full((3,), 3.0))
# --8<-- [end:fix]
