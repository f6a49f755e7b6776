"""Errors: torch.func and torch.autograd.functional."""

# raises: func-grad-scalar RuntimeError
# raises: func-grad-tensor RuntimeError
# raises: backward-in-transform RuntimeError
# raises: function-setup-context RuntimeError
# raises: strict-independent RuntimeError
# raises: hessian-scalar RuntimeError
# raises: vjp-v-none RuntimeError
# raises: strict-vjp RuntimeError
# raises: strict-hessian RuntimeError
# raises: jvp-v-none RuntimeError
# raises: strict-output-no-grad RuntimeError

# --8<-- [start:func-grad-fix]
import torch
from torch.func import grad, jacrev


def loss(x):
    return (x**2).sum()


def per_elem(x):
    return x**2


x = torch.tensor([1.0, 2.0])
print(grad(loss)(x), jacrev(per_elem)(x).diagonal())
assert torch.equal(grad(loss)(x), 2 * x)
# --8<-- [end:func-grad-fix]

# --8<-- [start:func-grad-scalar]
import torch
from torch.func import grad


def per_elem(x):
    return x**2


grad(per_elem)(torch.tensor([1.0, 2.0]))
# --8<-- [end:func-grad-scalar]

# --8<-- [start:func-grad-tensor]
import torch
from torch.func import grad


def loss_and_count(x):
    return (x**2).sum(), x.mean()


grad(loss_and_count)(torch.tensor([1.0, 2.0]))
# --8<-- [end:func-grad-tensor]

# --8<-- [start:func-grad-aux-fix]
import torch
from torch.func import grad


def loss_and_count(x):
    return (x**2).sum(), x.mean()


g, mean = grad(loss_and_count, has_aux=True)(torch.tensor([1.0, 2.0]))
print(g, mean)
assert mean.item() == 1.5 and g.tolist() == [2.0, 4.0]
# --8<-- [end:func-grad-aux-fix]

# --8<-- [start:backward-in-transform-fix]
import torch
from torch.func import grad


def loss(x):
    inner = torch.func.grad(lambda t: (t**3).sum())(x)
    return inner.sum()


x = torch.tensor([1.0, 2.0])
print(grad(loss)(x))
assert grad(loss)(x).tolist() == [6.0, 12.0]
# --8<-- [end:backward-in-transform-fix]

# --8<-- [start:backward-in-transform]
import torch
from torch.func import grad


def loss(x):
    y = (x**3).sum()
    y.backward()
    return y


grad(loss)(torch.tensor([1.0, 2.0]))
# --8<-- [end:backward-in-transform]

# --8<-- [start:function-setup-context-fix]
import torch
from torch.func import grad


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


x = torch.tensor(2.0)
print(grad(Cube.apply)(x))
assert grad(Cube.apply)(x).item() == 12.0
# --8<-- [end:function-setup-context-fix]

# --8<-- [start:function-setup-context]
import torch
from torch.func import grad


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


grad(Cube.apply)(torch.tensor(2.0))
# --8<-- [end:function-setup-context]

# --8<-- [start:strict-fix]
import torch
from torch.autograd.functional import jacobian


def f(x, y):
    return x * 2


x, y = torch.ones(2), torch.ones(2)
jx, jy = jacobian(f, (x, y))
print(jy)
assert torch.equal(jy, torch.zeros(2, 2))
# --8<-- [end:strict-fix]

# --8<-- [start:strict-independent]
import torch
from torch.autograd.functional import jacobian


def f(x, y):
    return x * 2


jacobian(f, (torch.ones(2), torch.ones(2)), strict=True)
# --8<-- [end:strict-independent]

# --8<-- [start:hessian-fix]
import torch
from torch.autograd.functional import hessian, vjp


def f(x):
    return (x**3).sum()


h = hessian(f, torch.tensor([1.0, 2.0]))
print(h)
assert torch.equal(h, torch.diag(torch.tensor([6.0, 12.0])))

out, g = vjp(lambda x: x**2, torch.tensor([1.0, 2.0]), v=torch.ones(2))
print(g)
assert g.tolist() == [2.0, 4.0]
# --8<-- [end:hessian-fix]

# --8<-- [start:hessian-scalar]
import torch
from torch.autograd.functional import hessian


def f(x):
    return x**3


hessian(f, torch.tensor([1.0, 2.0]))
# --8<-- [end:hessian-scalar]

# --8<-- [start:vjp-v-none]
import torch
from torch.autograd.functional import vjp


def f(x):
    return x**2


vjp(f, torch.tensor([1.0, 2.0]))
# --8<-- [end:vjp-v-none]

# --8<-- [start:strict-vjp]
import torch
from torch.autograd.functional import vjp


def f(x, y):
    return x * 2


vjp(f, (torch.ones(2), torch.ones(2)), v=torch.ones(2), strict=True)
# --8<-- [end:strict-vjp]

# --8<-- [start:strict-hessian]
import torch
from torch.autograd.functional import hessian


def f(x, y):
    return (x**3).sum() + y.sum()


hessian(f, (torch.ones(2), torch.ones(2)), strict=True)
# --8<-- [end:strict-hessian]

# --8<-- [start:jvp-v-none]
import torch
from torch.autograd.functional import jvp


def f(x):
    return x * 2


jvp(f, torch.ones(2))
# --8<-- [end:jvp-v-none]

# --8<-- [start:strict-output-no-grad]
import torch
from torch.autograd.functional import jacobian

jacobian(lambda x: x.detach() * 2, torch.ones(2), strict=True)
# --8<-- [end:strict-output-no-grad]
