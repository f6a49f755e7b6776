"""FAQ: higher-order gradients, gradient penalties, and what .grad holds."""

# --8<-- [start:gp-create-graph]
import torch
from torch import nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
real, fake = torch.randn(4, 2), torch.randn(4, 2)
eps = torch.rand(4, 1)
mix = (eps * real + (1 - eps) * fake).requires_grad_()

for create_graph in (False, True):
    critic.zero_grad()
    (g,) = torch.autograd.grad(
        critic(mix).sum(), mix, create_graph=create_graph  # (1)!
    )
    penalty = ((g.norm(dim=1) - 1) ** 2).mean()
    print(f"create_graph={create_graph}: penalty.requires_grad =",
          penalty.requires_grad)
    if create_graph:
        penalty.backward()  # (2)!
        w = critic[0].weight.grad
        print("  critic's first layer gets a gradient:", w is not None)
        assert w is not None and w.abs().sum() > 0
    else:
        try:
            penalty.backward()
        except RuntimeError as err:
            print("  backward():", str(err)[:48], "...")
            assert "does not require grad" in str(err)
# --8<-- [end:gp-create-graph]

# --8<-- [start:backward-create-graph-leak]
import warnings

import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (w**3).sum().backward(create_graph=True)  # (1)!
message = str(caught[0].message).split(" (Triggered")[0]
print(message)
assert message.startswith("Using backward() with create_graph=True")
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
