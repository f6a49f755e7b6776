"""Errors: detaching or resizing in place, a saved tensor detached in place,
and allow_mutation_on_saved_tensors used outside its context."""

# raises: detach-view RuntimeError
# raises: resize-leaf RuntimeError
# raises: saved-detached RuntimeError
# raises: mutation-nested RuntimeError
# raises: mutation-outside AssertionError

# --8<-- [start:detach-view-fix]
import torch

w = torch.ones(4, requires_grad=True)
view = (w * 2)[:2]
d = view.detach()
print(d.requires_grad, view.requires_grad)
assert not d.requires_grad and view.requires_grad
# --8<-- [end:detach-view-fix]

# --8<-- [start:detach-view]
import torch

w = torch.ones(4, requires_grad=True)
view = (w * 2)[:2]
view.detach_()
# --8<-- [end:detach-view]

# --8<-- [start:resize-leaf-fix]
import torch

w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    bigger = torch.cat([w, torch.zeros(1)])
w2 = bigger.requires_grad_()
print(w2.shape, w2.is_leaf)
assert w2.shape == (4,) and w2.is_leaf
# --8<-- [end:resize-leaf-fix]

# --8<-- [start:resize-leaf]
import torch

w = torch.ones(3, requires_grad=True)
w.resize_(4)
# --8<-- [end:resize-leaf]

# --8<-- [start:saved-detached-fix]
import torch

w = torch.ones(3, requires_grad=True)
h = w * 2
y = h.sin()
logged = h.detach()
y.sum().backward()
print(w.grad)
assert not logged.requires_grad and h.requires_grad
assert torch.allclose(w.grad, 2 * torch.cos(torch.full((3,), 2.0)))
# --8<-- [end:saved-detached-fix]

# --8<-- [start:saved-detached]
import torch

w = torch.ones(3, requires_grad=True)
h = w * 2
y = h.sin()
h.detach_()
y.sum().backward()
# --8<-- [end:saved-detached]

# --8<-- [start:mutation-fix]
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

w = torch.ones(3, requires_grad=True)
with allow_mutation_on_saved_tensors():
    h = w * 2
    y = h.sin()
    h.mul_(10)
    y.sum().backward()
print(w.grad)
assert torch.allclose(w.grad, 2 * torch.cos(torch.full((3,), 2.0)))
# --8<-- [end:mutation-fix]

# --8<-- [start:mutation-nested]
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

with allow_mutation_on_saved_tensors():
    with allow_mutation_on_saved_tensors():
        pass
# --8<-- [end:mutation-nested]

# --8<-- [start:mutation-outside]
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

w = torch.ones(3, requires_grad=True)
with allow_mutation_on_saved_tensors():
    h = w * 2
    y = h.sin()
    h.mul_(10)
y.sum().backward()
# --8<-- [end:mutation-outside]
