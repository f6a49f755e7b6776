"""Errors: changing requires_grad inside a function compiled with torch.compile
(fullgraph=True turns the graph break into an error)."""

# timeout: 120

# raises: compile-requires-grad-call RuntimeError

# --8<-- [start:compile-requires-grad-fix]
import torch


@torch.compile(fullgraph=True, backend="eager")
def scale(w, x):
    return w * x


w = torch.ones(2, requires_grad=True)
scale(w, torch.full((2,), 3.0)).sum().backward()
print(w.grad)
assert w.grad.tolist() == [3.0, 3.0]
# --8<-- [end:compile-requires-grad-fix]

# --8<-- [start:compile-requires-grad-call]
import torch


@torch.compile(fullgraph=True, backend="eager")
def make_leaf(x):
    y = x * 2
    y.requires_grad_()
    return y


make_leaf(torch.ones(2))
# --8<-- [end:compile-requires-grad-call]
