# warns: variable UserWarning
"""API inventory, torch.autograd: grad(), backward() and the old Variable."""

# --8<-- [start:grad]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
u = torch.tensor([5.0], requires_grad=True)
y = x ** 2
(gx,) = torch.autograd.grad(y, x, grad_outputs=torch.ones(2),
                            retain_graph=True)  # (1)!
assert gx.tolist() == [2.0, 4.0] and x.grad is None
_, gu = torch.autograd.grad(y.sum(), (x, u), allow_unused=True,
                            retain_graph=True)  # (2)!
_, zeros = torch.autograd.grad(y.sum(), (x, u), allow_unused=True,
                               materialize_grads=True)
print("gx:", gx)
print("unused:", gu)
print("materialized:", zeros)
assert gu is None and zeros.tolist() == [0.0]
# --8<-- [end:grad]

# --8<-- [start:grad-create-graph]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)  # (1)!
penalty = (g ** 2).sum()
penalty.backward()
print("x.grad:", x.grad)
assert x.grad.tolist() == [36.0, 288.0]
(rows,) = torch.autograd.grad(x * 2, x, grad_outputs=torch.eye(2),
                              is_grads_batched=True)  # (2)!
assert rows.tolist() == [[2.0, 0.0], [0.0, 2.0]]
# --8<-- [end:grad-create-graph]

# --8<-- [start:backward]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
loss_a = (w * 2).sum()
loss_b = (w * b).sum()
torch.autograd.backward([loss_a, loss_b],
                        grad_tensors=[torch.tensor(1.0),
                                      torch.tensor(0.5)],
                        inputs=[w])  # (1)!
print("w.grad:", w.grad)
print("b.grad:", b.grad)
assert w.grad.tolist() == [3.5, 3.5] and b.grad is None
# --8<-- [end:backward]

# --8<-- [start:variable]
import torch
from torch.autograd import Variable

v = Variable(torch.ones(2), requires_grad=True)  # (1)!
assert type(v) is torch.Tensor and v.is_leaf and v.requires_grad
old = Variable(torch.ones(2), volatile=True)  # (2)!
print("type:", type(v).__name__)
print("volatile -> requires_grad:", old.requires_grad)
# --8<-- [end:variable]
