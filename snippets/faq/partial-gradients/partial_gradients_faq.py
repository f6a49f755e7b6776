"""FAQ: gradient reversal and scaling, stopping the gradient for part of a
tensor, and a backward() defined on an nn.Module."""

# --8<-- [start:gradient-reversal]
import torch
from torch import nn

torch.manual_seed(0)
features = nn.Linear(4, 3)
domain_head = nn.Linear(3, 1)
x = torch.randn(8, 4)
lam = 0.5


def reverse(h, lam):
    return h.detach() * (1 + lam) - h * lam  # (1)!


def grads(make):
    features.zero_grad()
    domain_head.zero_grad()
    domain_head(make(features(x))).sum().backward()
    return features.weight.grad.clone(), domain_head.weight.grad.clone()


plain_f, plain_d = grads(lambda h: h)
rev_f, rev_d = grads(lambda h: reverse(h, lam))
print("feature grads are -lam times the plain ones:",
      torch.allclose(rev_f, -lam * plain_f))
assert torch.allclose(rev_f, -lam * plain_f)
assert torch.allclose(rev_d, plain_d)  # (2)!

h = features(x)
assert torch.allclose(reverse(h, lam), h)  # (3)!


def with_hook(h):
    h = h.clone()
    h.register_hook(lambda g: -lam * g)  # (4)!
    return h


hook_f, _ = grads(with_hook)
assert torch.allclose(hook_f, rev_f)
# --8<-- [end:gradient-reversal]

# --8<-- [start:module-backward-not-called]
import torch
from torch import nn


class GRL(nn.Module):
    def forward(self, x):
        return x

    def backward(self, grad):  # (1)!
        raise AssertionError("never called")


x = torch.ones(2, requires_grad=True)
(GRL()(x) * 3).sum().backward()
print("x.grad with the module's backward():", x.grad.tolist())
assert torch.equal(x.grad, torch.full((2,), 3.0))


class Reverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):  # (2)!
        return -g


x.grad = None
(Reverse.apply(x) * 3).sum().backward()
print("x.grad with an autograd.Function:", x.grad.tolist())
assert torch.equal(x.grad, torch.full((2,), -3.0))
# --8<-- [end:module-backward-not-called]

# --8<-- [start:gradient-scale]
import torch
from torch import nn

torch.manual_seed(0)
frontend = nn.Linear(4, 4)
rest = nn.Linear(4, 1)
x = torch.randn(8, 4)
scale = 0.1


def step(scaled):
    frontend.zero_grad()
    h = frontend(x)
    if scaled:
        h = h * scale + h.detach() * (1 - scale)  # (1)!
    out = rest(h)
    out.sum().backward()
    return out.detach(), frontend.weight.grad.clone(), rest.weight.grad


out_a, g_a, r_a = step(False)
r_a = r_a.clone()
rest.zero_grad()
out_b, g_b, r_b = step(True)
print("same forward:", torch.allclose(out_a, out_b),
      "| frontend grad scaled by 0.1:", torch.allclose(g_b, 0.1 * g_a))
assert torch.allclose(out_a, out_b) and torch.allclose(g_b, 0.1 * g_a)
assert torch.allclose(r_b, r_a)  # (2)!
# --8<-- [end:gradient-scale]

# --8<-- [start:mask-stop-gradient]
import torch

plane = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
logit = torch.tensor([2.0, -2.0, 0.5, -0.5], requires_grad=True)
mask = torch.sigmoid(logit)

ste = (plane * (mask >= 0.5) - plane * mask).detach() + plane * mask  # (1)!
ste.sum().backward()
print("forward:", ste.tolist())
print("grad to plane:", [round(v, 3) for v in plane.grad.tolist()])
print("grad to logit:", [round(v, 3) for v in logit.grad.tolist()])
assert torch.equal(ste.detach(), torch.tensor([1.0, 0.0, 3.0, 0.0]))
assert (logit.grad != 0).all()

plane.grad = logit.grad = None
hard = (plane * (mask >= 0.5)).detach()  # (2)!
print("the detached version requires grad:", hard.requires_grad)
assert not hard.requires_grad

keep = torch.tensor([True, False, True, False])
part = torch.where(keep, plane, plane.detach())  # (3)!
(part * 10).sum().backward()
print("torch.where stops only the masked entries:", plane.grad.tolist())
assert torch.equal(plane.grad, torch.tensor([10.0, 0.0, 10.0, 0.0]))
# --8<-- [end:mask-stop-gradient]

# --8<-- [start:log-prob-detach-params]
import torch
from torch.distributions import Normal

torch.manual_seed(0)
mu = torch.tensor(0.5, requires_grad=True)
sigma = torch.tensor(2.0, requires_grad=True)
eps = torch.randn(())
z = mu + sigma * eps  # (1)!

(full,) = torch.autograd.grad(Normal(mu, sigma).log_prob(z), mu,
                              retain_graph=True)
frozen = Normal(mu.detach(), sigma.detach())  # (2)!
(path,) = torch.autograd.grad(frozen.log_prob(z), mu)
print("d log q / d mu, parameters live:", round(full.item(), 6))
print("parameters detached, path only: ", round(path.item(), 4),
      "= -eps / sigma:", round((-eps / sigma).item(), 4))
assert abs(full.item()) < 1e-6  # (3)!
assert torch.allclose(path, -eps / sigma.detach())
# --8<-- [end:log-prob-detach-params]
