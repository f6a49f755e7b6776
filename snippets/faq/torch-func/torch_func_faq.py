"""FAQ: detach, no_grad, .data and .item() inside torch.func transforms."""

# raises: func-data-and-requires-grad RuntimeError
# raises: func-vmap-item RuntimeError

# --8<-- [start:func-no-grad-levels]
import torch
from torch.func import grad

x = torch.tensor([1.0, 2.0, 4.0])


def centred(t):
    with torch.no_grad():  # (1)!
        shift = t.mean()
    return ((t - shift) ** 2).sum()


g = grad(centred)(x)
print("no_grad inside grad:", [round(v, 4) for v in g.tolist()])
assert torch.allclose(g, 2 * (x - x.mean()))


def detached(t):
    return ((t - t.mean().detach()) ** 2).sum()


assert torch.allclose(grad(detached)(x), g)  # (2)!


def cube(t):
    with torch.no_grad():
        c = t**2
    return (c * t).sum()


inner = grad(cube)(x)
outer = grad(lambda t: grad(cube)(t).sum())(x)  # (3)!
print("grad(cube):", inner.tolist())
print("grad of grad(cube):", outer.tolist())
assert torch.equal(inner, x**2) and torch.equal(outer, torch.zeros(3))

with torch.no_grad():
    outside = grad(lambda t: (t**2).sum())(x)  # (4)!
print("grad inside no_grad:", outside.tolist())
assert torch.equal(outside, 2 * x)
# --8<-- [end:func-no-grad-levels]

# --8<-- [start:func-data-and-requires-grad]
import torch
from torch.func import grad

x = torch.tensor([1.0, 2.0, 3.0])


def f(t):
    return (t * t.detach()).sum()


g = grad(f)(x)  # (1)!
gg = grad(lambda t: grad(f)(t).sum())(x)  # (2)!
print("grad(f):", g.tolist())
print("grad of grad(f):", gg.tolist())
assert torch.equal(g, x) and torch.equal(gg, torch.zeros(3))


def set_data(t):
    y = t * 2
    y.data = torch.ones(3)  # (3)!
    return y.sum()


grad(set_data)(x)
# --8<-- [end:func-data-and-requires-grad]


# Not shown: vmap refuses a .data assignment too, and grad refuses
# requires_grad_().
from torch.func import vmap


def set_data_one(t):
    t.data = torch.ones(())
    return t


def make_leaf(t):
    t.requires_grad_()
    return t.sum()


for transformed in (vmap(set_data_one), grad(make_leaf)):
    try:
        transformed(x)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the transform must refuse this")

# --8<-- [start:func-jvp-no-grad]
import torch
from torch.func import jacfwd, jacrev

x = torch.tensor([1.0, 2.0, 4.0])


def with_no_grad(t):
    with torch.no_grad():
        c = t**2
    return c * t


def with_detach(t):
    return (t**2).detach() * t


rev, fwd = jacrev(with_no_grad)(x), jacfwd(with_no_grad)(x)
print("no_grad: jacrev", rev.diag().tolist())
print("         jacfwd", fwd.diag().tolist())
assert not torch.equal(rev, fwd)  # (1)!
rev, fwd = jacrev(with_detach)(x), jacfwd(with_detach)(x)
print("detach:  jacrev", rev.diag().tolist())
print("         jacfwd", fwd.diag().tolist())
assert torch.equal(rev, fwd)  # (2)!
# --8<-- [end:func-jvp-no-grad]

# --8<-- [start:func-ste-second-order]
import torch
from torch.func import grad, jacrev


def q(y):
    soft = torch.tanh(y)
    return soft + (torch.clip(torch.round(y), -1, 1) - soft).detach()


def f(x, y, m, lam):
    return torch.norm(m @ q(y) - m @ x, 2) + lam * torch.norm(y, 1)


m = torch.tensor([[-1.7055013, 0.214439], [1.5994732, 1.179864]],
                 dtype=torch.float64)
x = torch.tensor([0.279999, -1.8200971], dtype=torch.float64)
y = torch.tensor([-0.33679163, -1.0274953], dtype=torch.float64)
hess = jacrev(grad(f, argnums=1), argnums=1)(x, y, m, 0.1)  # (1)!
print("torch.func:\n", hess)

y_ = y.clone().requires_grad_()
(g,) = torch.autograd.grad(f(x, y_, m, 0.1), y_, create_graph=True)
rows = [torch.autograd.grad(g[i], y_, retain_graph=True)[0]
        for i in range(2)]
print("torch.autograd, twice:\n", torch.stack(rows))  # (2)!
assert torch.allclose(hess, torch.stack(rows))
assert hess[0, 1] != 0
# --8<-- [end:func-ste-second-order]

# --8<-- [start:func-vmap-item]
import torch
from torch.func import vmap

x = torch.tensor([1.0, -2.0, 3.0])
kept = vmap(lambda t: torch.where(t > 0, t, 0.0))(x)  # (1)!
print("torch.where instead:", kept.tolist())
assert kept.tolist() == [1.0, 0.0, 3.0]

vmap(lambda t: t * t.item())(x)  # (2)!
# --8<-- [end:func-vmap-item]

# Not shown: detach().numpy() inside grad raises as well.
try:
    grad(lambda t: t.sum() + float(t.detach().numpy().sum()))(x)
except RuntimeError:
    pass
else:
    raise AssertionError("a tensor inside a transform has no storage")

# --8<-- [start:func-detach-params]
import torch
from torch import nn
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
model = nn.Linear(3, 1)
x, y = torch.randn(4, 3), torch.randn(4, 1)


def loss(params, xb, yb):
    return ((functional_call(model, params, (xb,)) - yb) ** 2).mean()


params = dict(model.named_parameters())
g = grad(loss)(params, x, y)  # (1)!
print("grads from live parameters require grad:",
      {k: v.requires_grad for k, v in g.items()})
assert all(v.requires_grad for v in g.values())

detached = {k: v.detach() for k, v in params.items()}
g2 = grad(loss)(detached, x, y)  # (2)!
print("from detached copies:", {k: v.requires_grad for k, v in g2.items()})
assert not any(v.requires_grad for v in g2.values())
assert torch.allclose(g["weight"], g2["weight"])

per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(
    detached, x.unsqueeze(1), y.unsqueeze(1))  # (3)!
print("per-sample weight grads:", tuple(per_sample["weight"].shape))
assert torch.allclose(per_sample["weight"].mean(0), g2["weight"])
# --8<-- [end:func-detach-params]
