# raises: gp-interpolate-detach RuntimeError
"""FAQ: in a WGAN-GP gradient penalty, what may be detached (the samples'
link to the generator) and what may not (the interpolate on its way into
the critic, and the gradient itself)."""

# --8<-- [start:gp-interpolate-detach]
import torch
from torch import autograd, nn

torch.manual_seed(0)
G = nn.Linear(2, 4)
D = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
real, fake = torch.randn(8, 4), G(torch.randn(8, 2))
alpha = torch.rand(8, 1)

interpolates = alpha * real + (1 - alpha) * fake.detach()  # (1)!
interpolates.requires_grad_(True)
d_out = D(interpolates)
grads = autograd.grad(d_out, interpolates, torch.ones_like(d_out),
                      create_graph=True)[0]
penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
penalty.backward()
print("D gets a gradient:", D[0].weight.grad is not None,
      "| G gets one:", G.weight.grad is not None)
assert D[0].weight.grad is not None and G.weight.grad is None

d_out = D(interpolates)
grads = autograd.grad(d_out, interpolates, torch.ones_like(d_out),
                      create_graph=True)[0]
penalty = ((grads.detach().norm(2, dim=1) - 1) ** 2).mean()  # (2)!
print("penalty.requires_grad:", penalty.requires_grad)
assert not penalty.requires_grad

d_out = D(interpolates.detach())  # (3)!
autograd.grad(d_out, interpolates, torch.ones_like(d_out))
# --8<-- [end:gp-interpolate-detach]
