"""FAQ: stop-gradient tricks built on detach()."""

# --8<-- [start:ste]
import torch

x = torch.tensor([0.6, -0.2, 1.5, -1.0], requires_grad=True)
hard = (x > 0).float()  # (1)!
y = x + (hard - x).detach()  # (2)!
print("forward value:", y.tolist())
assert torch.equal(y, hard)
y.sum().backward()
print("gradient:", x.grad.tolist())  # (3)!
assert torch.equal(x.grad, torch.ones(4))

x.grad = None
r = x.round()
r.sum().backward()
print("round() alone gives:", x.grad.tolist())  # (4)!
assert torch.equal(x.grad, torch.zeros(4))
# --8<-- [end:ste]

# --8<-- [start:gan-detach]
import torch

torch.manual_seed(0)
G, D = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
fake = G(torch.randn(4, 2))
d_loss = D(fake.detach()).mean()  # (1)!
d_loss.backward()
print("D step: D.weight.grad set:", D.weight.grad is not None,
      "| G.weight.grad:", G.weight.grad)
assert D.weight.grad is not None and G.weight.grad is None

g_loss = -D(fake).mean()  # (2)!
g_loss.backward()
print("G step: G.weight.grad set:", G.weight.grad is not None)
assert G.weight.grad is not None
# --8<-- [end:gan-detach]
