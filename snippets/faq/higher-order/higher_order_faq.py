"""FAQ: higher-order gradients, gradient penalties, and what .grad holds."""

# raises: gp-create-graph RuntimeError
# warns: backward-create-graph-leak UserWarning

# --8<-- [start:gp-create-graph]
import torch
from torch import nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
real, fake = torch.randn(4, 2), torch.randn(4, 2)
eps = torch.rand(4, 1)
mix = (eps * real + (1 - eps) * fake).requires_grad_()

(g,) = torch.autograd.grad(critic(mix).sum(), mix, create_graph=True)  # (1)!
penalty = ((g.norm(dim=1) - 1) ** 2).mean()
print("create_graph=True: penalty.requires_grad =", penalty.requires_grad)
penalty.backward()  # (2)!
w = critic[0].weight.grad
print("critic's first layer gets a gradient:", w is not None)
assert w is not None and w.abs().sum() > 0

(g,) = torch.autograd.grad(critic(mix).sum(), mix)  # (3)!
penalty = ((g.norm(dim=1) - 1) ** 2).mean()
print("create_graph=False: penalty.requires_grad =", penalty.requires_grad)
assert not penalty.requires_grad
penalty.backward()
# --8<-- [end:gp-create-graph]

# --8<-- [start:backward-create-graph-leak]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w**3).sum().backward(create_graph=True)  # (1)!
print("w.grad.grad_fn:", type(w.grad.grad_fn).__name__)  # (2)!
assert w.grad.requires_grad and w.grad.grad_fn is not None

first = w.grad
(w**3).sum().backward(create_graph=True)
print("second backward replaced the .grad object:", w.grad is not first)
assert w.grad is not first  # (3)!
w.grad = None  # (4)!

(g,) = torch.autograd.grad((w**3).sum(), w, create_graph=True)  # (5)!
print("autograd.grad leaves w.grad alone:", w.grad is None)
assert w.grad is None and g.grad_fn is not None
# --8<-- [end:backward-create-graph-leak]
