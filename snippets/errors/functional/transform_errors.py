"""Errors: autograd's own switches (requires_grad_, retain_grad, .data) and
in-place writes to captured tensors, inside a torch.func transform."""

# raises: transform-requires-grad RuntimeError
# raises: transform-retain-grad RuntimeError
# raises: transform-captured-inplace RuntimeError
# raises: transform-data RuntimeError
# raises: transform-data-read RuntimeError
# raises: transform-data-grad RuntimeError

# --8<-- [start:transform-requires-grad-fix]
import torch
from torch.func import grad


def loss(w, x):
    return (w * x).sum() ** 2


w = torch.ones(3)
x = torch.tensor([1.0, 2.0, 3.0])
g = grad(loss)(w, x)
print(g)
assert g.tolist() == [12.0, 24.0, 36.0]
# --8<-- [end:transform-requires-grad-fix]

# --8<-- [start:transform-requires-grad]
import torch
from torch.func import grad


def loss(w):
    scale = w.detach().requires_grad_()
    return (w * scale).sum()


grad(loss)(torch.ones(3))
# --8<-- [end:transform-requires-grad]

# --8<-- [start:transform-retain-grad]
import torch
from torch.func import grad


def loss(w):
    h = w * 2
    h.retain_grad()
    return h.sum()


grad(loss)(torch.ones(3))
# --8<-- [end:transform-retain-grad]

# --8<-- [start:transform-captured-inplace-fix]
import torch
from torch.func import grad

total = torch.zeros(3)


def loss(w):
    return (w * w).sum()


g = grad(loss)(torch.ones(3))
total += g
print(total)
assert total.tolist() == [2.0, 2.0, 2.0]
# --8<-- [end:transform-captured-inplace-fix]

# --8<-- [start:transform-captured-inplace]
import torch
from torch.func import grad

total = torch.zeros(3)


def loss(w):
    total.add_(w)
    return (w * w).sum()


grad(loss)(torch.ones(3))
# --8<-- [end:transform-captured-inplace]

# --8<-- [start:transform-data-fix]
import torch
from torch.func import vmap


def normalize(x):
    return x / x.norm()


out = vmap(normalize)(torch.tensor([[3.0, 4.0], [0.0, 2.0]]))
print(out)
assert torch.allclose(out.norm(dim=1), torch.ones(2))
# --8<-- [end:transform-data-fix]

# --8<-- [start:transform-data]
import torch
from torch.func import vmap


def normalize(x):
    x.data = x / x.norm()
    return x


vmap(normalize)(torch.tensor([[3.0, 4.0], [0.0, 2.0]]))
# --8<-- [end:transform-data]

# --8<-- [start:transform-data-read]
import torch
from torch.func import vmap

vmap(lambda x: x.data * 2)(torch.ones(2, 3))
# --8<-- [end:transform-data-read]

# --8<-- [start:transform-data-grad]
import torch
from torch.func import grad


def loss(w):
    w.data = w * 2
    return w.sum()


grad(loss)(torch.ones(3))
# --8<-- [end:transform-data-grad]
