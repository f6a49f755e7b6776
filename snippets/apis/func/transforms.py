"""API inventory, torch.func: function transforms and where gradients go."""

# --8<-- [start:grad]
import torch
from torch.func import grad, grad_and_value

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0])


def loss(x, w):
    return (x * w).sum(), x.detach()  # (1)!


g_w, aux = grad(loss, argnums=1, has_aux=True)(x, w)  # (2)!
assert g_w.tolist() == [1.0, 2.0] and x.grad is None
assert g_w.requires_grad  # (3)!
g_x, (value, _) = grad_and_value(loss, has_aux=True)(x, w)
print("d/dw:", g_w.detach())
print("d/dx:", g_x)
print("value:", value.item())
assert g_x.tolist() == [3.0, 4.0] and value.item() == 11.0
# --8<-- [end:grad]

# --8<-- [start:vjp-jvp]
import torch
from torch.func import jvp, vjp

x = torch.tensor([1.0, 2.0])
out, vjp_fn = vjp(torch.sin, x)  # (1)!
(ct,) = vjp_fn(torch.ones(2))
_, tangent = jvp(torch.sin, (x,), (torch.ones(2),))  # (2)!
assert torch.allclose(ct, x.cos()) and torch.allclose(tangent, x.cos())
print("vjp:", ct)
print("jvp:", tangent)
# --8<-- [end:vjp-jvp]

# --8<-- [start:jacobians]
import torch
from torch.func import hessian, jacfwd, jacrev

x = torch.tensor([1.0, 2.0])


def f(x):
    return x ** 3


J_rev, J_fwd = jacrev(f)(x), jacfwd(f)(x)  # (1)!
assert torch.equal(J_rev, J_fwd)
H = hessian(lambda x: f(x).sum())(x)  # (2)!
print("jacobian diag:", J_rev.diag())
print("hessian diag:", H.diag())
assert H.diag().tolist() == [6.0, 12.0]
# --8<-- [end:jacobians]

# --8<-- [start:stack-module-state]
import copy

import torch
from torch import nn
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)
models = [nn.Linear(2, 1) for _ in range(3)]
params, buffers = stack_module_state(models)  # (1)!
assert params["weight"].shape == (3, 1, 2)
assert params["weight"].is_leaf and params["weight"].requires_grad
base = copy.deepcopy(models[0]).to("meta")


def run(p, b, x):
    return functional_call(base, (p, b), (x,))


out = vmap(run, in_dims=(0, 0, None))(params, buffers, torch.ones(1, 2))
out.sum().backward()  # (2)!
print("stacked grad:", tuple(params["weight"].grad.shape))
print("models[0] grad:", models[0].weight.grad)
assert models[0].weight.grad is None
# --8<-- [end:stack-module-state]
