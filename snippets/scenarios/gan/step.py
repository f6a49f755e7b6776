# raises: no-detach RuntimeError
"""One GAN training step: who gets gradients in the D step and the G step,
where zero_grad() goes, and what Post A's detach in the G step would do."""

# --8<-- [start:setup]
import torch
from torch import nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
opt_g = torch.optim.SGD(G.parameters(), lr=0.05)
opt_d = torch.optim.SGD(D.parameters(), lr=0.05)
bce = nn.BCEWithLogitsLoss()
real = torch.randn(32, 2) + 3.0
ones, zeros = torch.ones(32, 1), torch.zeros(32, 1)
# --8<-- [end:setup]

# --8<-- [start:d-step]
fake = G(torch.randn(32, 4))  # (1)!

opt_d.zero_grad()  # (2)!
d_loss = bce(D(real), ones) + bce(D(fake.detach()), zeros)  # (3)!
d_loss.backward()
print("G[0].weight.grad is None:", G[0].weight.grad is None)
print("D[0].weight.grad is None:", D[0].weight.grad is None)
assert all(p.grad is None for p in G.parameters())
assert all(p.grad is not None for p in D.parameters())
opt_d.step()
# --8<-- [end:d-step]

# --8<-- [start:g-step]
opt_g.zero_grad()  # (1)!
g_loss = bce(D(fake), ones)  # (2)!
g_loss.backward()
print("G[0].weight.grad is None:", G[0].weight.grad is None)
print("D[0].weight.grad is None:", D[0].weight.grad is None)  # (3)!
assert all(p.grad is not None for p in G.parameters())
assert all(p.grad is not None for p in D.parameters())
opt_g.step()
# --8<-- [end:g-step]

# --8<-- [start:no-detach]
G.zero_grad(set_to_none=True)
D.zero_grad(set_to_none=True)
fake = G(torch.randn(32, 4))
d_loss = bce(D(real), ones) + bce(D(fake), zeros)  # (1)!
d_loss.backward()
print("G[0].weight.grad is None:", G[0].weight.grad is None)
assert all(p.grad is not None for p in G.parameters())
with_detach = torch.autograd.grad(  # (2)!
    bce(D(real), ones) + bce(D(fake.detach()), zeros), list(D.parameters())
)
assert all(
    torch.allclose(g, p.grad) for g, p in zip(with_detach, D.parameters())
)
bce(D(fake), ones).backward()  # (3)!
# --8<-- [end:no-detach]

# --8<-- [start:seed-claim]
G.zero_grad(set_to_none=True)
D.zero_grad(set_to_none=True)
fake_output = D(G(torch.randn(32, 4)).detach())  # (1)!
bce(fake_output, ones).backward()
print("G[0].weight.grad is None:", G[0].weight.grad is None)  # (2)!
assert all(p.grad is None for p in G.parameters())
assert all(p.grad is not None for p in D.parameters())
# --8<-- [end:seed-claim]

# --8<-- [start:freeze-d]
G.zero_grad(set_to_none=True)
D.zero_grad(set_to_none=True)
D.requires_grad_(False)  # (1)!
bce(D(G(torch.randn(32, 4))), ones).backward()
D.requires_grad_(True)
print("G[0].weight.grad is None:", G[0].weight.grad is None)
print("D[0].weight.grad is None:", D[0].weight.grad is None)  # (2)!
assert all(p.grad is not None for p in G.parameters())
assert all(p.grad is None for p in D.parameters())
# --8<-- [end:freeze-d]
