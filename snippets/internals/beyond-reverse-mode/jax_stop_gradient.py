"""JAX's lax.stop_gradient beside detach(): the same function, the same
gradients, in reverse and in forward mode."""

# --8<-- [start:jax]
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import torch
import torch.autograd.forward_ad as fwAD

values = [1.0, 2.0, 3.0]


def f_jax(x):
    return jnp.sum(x * jax.lax.stop_gradient(x))  # (1)!


x = torch.tensor(values, requires_grad=True)
(x * x.detach()).sum().backward()
g_jax = jax.grad(f_jax)(jnp.array(values))
print("reverse, PyTorch x.grad:", x.grad.tolist())
print("reverse, JAX grad:      ", g_jax.tolist())
assert x.grad.tolist() == g_jax.tolist() == values  # (2)!

ones = [1.0, 1.0, 1.0]
_, t_jax = jax.jvp(f_jax, (jnp.array(values),), (jnp.array(ones),))
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor(values), torch.tensor(ones))
    t_torch = fwAD.unpack_dual((d * d.detach()).sum()).tangent
print("forward, PyTorch tangent:", t_torch.item(), "| JAX:", float(t_jax))
assert t_torch.item() == float(t_jax) == sum(values)  # (3)!

g_all = jax.grad(lambda x: jnp.sum(jax.lax.stop_gradient(x) ** 2))
x = torch.tensor(values, requires_grad=True)
print("fully stopped: JAX grad", g_all(jnp.array(values)).tolist())
print("   PyTorch requires_grad:", (x.detach() ** 2).sum().requires_grad)
assert g_all(jnp.array(values)).tolist() == [0.0, 0.0, 0.0]  # (4)!
# --8<-- [end:jax]
