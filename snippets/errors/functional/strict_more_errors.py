"""Errors: strict=True in torch.autograd.functional when a derivative is
constant (create_graph=True) or does not reach an input."""

# raises: strict-linear-create-graph RuntimeError
# raises: strict-quadratic-create-graph RuntimeError
# raises: strict-jvp-constant RuntimeError
# raises: strict-vhp-unreached RuntimeError

# --8<-- [start:strict-create-graph-fix]
import torch
from torch.autograd.functional import jacobian

x = torch.ones(2, requires_grad=True)
j = jacobian(lambda t: t * 2, x, create_graph=True)
print(j)
assert torch.equal(j, 2 * torch.eye(2)) and not j.requires_grad
# --8<-- [end:strict-create-graph-fix]

# --8<-- [start:strict-linear-create-graph]
import torch
from torch.autograd.functional import jacobian

x = torch.ones(2, requires_grad=True)
jacobian(lambda t: t * 2, x, strict=True, create_graph=True)
# --8<-- [end:strict-linear-create-graph]

# --8<-- [start:strict-quadratic-create-graph]
import torch
from torch.autograd.functional import vhp

x = torch.ones(2, requires_grad=True)
vhp(lambda t: (t * t).sum(), x, torch.ones(2), strict=True, create_graph=True)
# --8<-- [end:strict-quadratic-create-graph]

# --8<-- [start:strict-jvp-constant]
import torch
from torch.autograd.functional import jvp

jvp(torch.floor, torch.ones(2), torch.ones(2), strict=True)
# --8<-- [end:strict-jvp-constant]

# --8<-- [start:strict-vhp-unreached]
import torch
from torch.autograd.functional import vhp


def f(a, b):
    return (a * a).sum() + (a.floor() * b).sum()


ones = torch.ones(2)
vhp(f, (ones, ones), (ones, ones), strict=True)
# --8<-- [end:strict-vhp-unreached]
