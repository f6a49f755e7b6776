# raises: functional-strict RuntimeError
"""API inventory, torch.autograd.forward_ad and torch.autograd.functional."""

# --8<-- [start:functional]
import torch
from torch.autograd.functional import hessian, jacobian, vjp


def f(x):
    return x ** 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
J = jacobian(f, x)  # (1)!
assert J.tolist() == [[2.0, 0.0], [0.0, 4.0]] and J.grad_fn is None
J2 = jacobian(f, x, create_graph=True)  # (2)!
assert J2.requires_grad
_, v = vjp(f, x, torch.ones(2))
H = hessian(lambda x: (x ** 3).sum(), x)
print("vjp:", v)
print("hessian diag:", H.diagonal())
assert H.diagonal().tolist() == [6.0, 12.0]
# --8<-- [end:functional]

# --8<-- [start:functional-strict]
def ignores_input(x):
    return torch.ones(2)


print(jacobian(ignores_input, x))
jacobian(ignores_input, x, strict=True)  # (1)!
# --8<-- [end:functional-strict]
