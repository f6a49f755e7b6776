"""Errors: requires_grad, leaves and .grad."""

# raises: int-requires-grad-factory RuntimeError
# raises: int-requires-grad-attr RuntimeError
# raises: requires-grad-bool RuntimeError
# raises: data-int RuntimeError
# raises: assign-grad-size RuntimeError
# raises: assign-grad-dtype RuntimeError
# raises: assign-grad-type TypeError
# raises: param-non-leaf TypeError

# --8<-- [start:int-requires-grad-fix]
import torch

labels = torch.tensor([0, 2, 1])
w = torch.zeros(3, dtype=torch.float32, requires_grad=True)
x = labels.float().requires_grad_()
print(w.dtype, w.requires_grad, "|", x.dtype, x.requires_grad)
assert w.requires_grad and x.requires_grad and not labels.requires_grad
# --8<-- [end:int-requires-grad-fix]

# --8<-- [start:int-requires-grad-factory]
import torch

torch.zeros(3, dtype=torch.long, requires_grad=True)
# --8<-- [end:int-requires-grad-factory]

# --8<-- [start:int-requires-grad-attr]
import torch

labels = torch.tensor([0, 2, 1])
labels.requires_grad = True
# --8<-- [end:int-requires-grad-attr]

# --8<-- [start:requires-grad-bool-fix]
import torch

x = torch.ones(2)
x.requires_grad = True
print(x.requires_grad)
assert x.requires_grad is True
# --8<-- [end:requires-grad-bool-fix]

# --8<-- [start:requires-grad-bool]
import torch

x = torch.ones(2)
x.requires_grad = 1
# --8<-- [end:requires-grad-bool]

# --8<-- [start:data-int-fix]
import torch

w = torch.zeros(3, requires_grad=True)
with torch.no_grad():
    w.copy_(torch.tensor([1, 2, 3]))
print(w, w.dtype)
assert w.dtype == torch.float32 and w.tolist() == [1.0, 2.0, 3.0]
# --8<-- [end:data-int-fix]

# --8<-- [start:data-int]
import torch

w = torch.zeros(3, requires_grad=True)
w.data = torch.tensor([1, 2, 3])
# --8<-- [end:data-int]

# --8<-- [start:assign-grad-fix]
import torch

p = torch.zeros(2, 3, requires_grad=True)
g = torch.ones(3, 2, dtype=torch.float64)
p.grad = g.T.to(p.dtype)
print(p.grad.shape, p.grad.dtype)
assert p.grad.shape == p.shape and p.grad.dtype == p.dtype
# --8<-- [end:assign-grad-fix]

# --8<-- [start:assign-grad-size]
import torch

p = torch.zeros(2, 3, requires_grad=True)
p.grad = torch.ones(3, 2)
# --8<-- [end:assign-grad-size]

# --8<-- [start:assign-grad-dtype]
import torch

p = torch.zeros(2, 3, requires_grad=True)
p.grad = torch.ones(2, 3, dtype=torch.float64)
# --8<-- [end:assign-grad-dtype]

# --8<-- [start:assign-grad-type]
import torch

p = torch.zeros(2, 3, requires_grad=True)
p.grad = [[1.0] * 3] * 2
# --8<-- [end:assign-grad-type]

# --8<-- [start:param-non-leaf-fix]
import torch

lin = torch.nn.Linear(2, 2)
lin.weight = torch.nn.Parameter(lin.weight.detach() * 2)
print(type(lin.weight).__name__, lin.weight.is_leaf)
assert isinstance(lin.weight, torch.nn.Parameter) and lin.weight.is_leaf
# --8<-- [end:param-non-leaf-fix]

# --8<-- [start:param-non-leaf]
import torch

lin = torch.nn.Linear(2, 2)
lin.weight = lin.weight * 2
# --8<-- [end:param-non-leaf]
