"""Seed 003 says a detached tensor can be re-attached with detach_() in PyTorch
1.9+. It cannot: detach_() detaches in place, and nothing re-attaches a
tensor to a graph."""

# --8<-- [start:detach-underscore]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
d = y.detach()

d.detach_()  # (1)!
print("d after detach_():", d.requires_grad, d.grad_fn)
assert not d.requires_grad and d.grad_fn is None

y.detach_()  # (2)!
print("y after detach_():", y.requires_grad, y.grad_fn)
assert not y.requires_grad and y.grad_fn is None
# --8<-- [end:detach-underscore]

# --8<-- [start:requires-grad]
d.requires_grad_()  # (1)!
loss = (d * d).sum()
loss.backward()
print("d.grad:", d.grad)
print("x.grad:", x.grad)
assert d.is_leaf and d.grad is not None
assert x.grad is None  # (2)!
# --8<-- [end:requires-grad]
