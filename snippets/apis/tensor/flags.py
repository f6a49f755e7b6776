# raises: requires-grad-nonleaf RuntimeError
"""API inventory, torch.Tensor: the flags that put a tensor in the graph."""

# --8<-- [start:requires-grad]
import torch

w = torch.ones(3, requires_grad=True)
x = torch.ones(3)
y = w * x
print("w:", w.requires_grad)
print("x:", x.requires_grad)
print("y:", y.requires_grad)
assert y.requires_grad and not x.requires_grad
x.requires_grad = True  # (1)!
assert (w * x).requires_grad and x.is_leaf
# --8<-- [end:requires-grad]

# --8<-- [start:requires-grad-inplace]
import torch

p = torch.ones(2, requires_grad=True)
p.requires_grad_(False)  # (1)!
assert (p * 2).grad_fn is None
p.requires_grad_()
assert (p * 2).grad_fn is not None
print("p.requires_grad:", p.requires_grad)
# --8<-- [end:requires-grad-inplace]

# --8<-- [start:requires-grad-nonleaf]
h = p * 2
h.requires_grad_(False)
# --8<-- [end:requires-grad-nonleaf]

# --8<-- [start:is-leaf]
import torch

a = torch.ones(2, requires_grad=True)
b = a * 2
c = torch.ones(2)
print("a:", a.is_leaf)
print("b:", b.is_leaf)
print("c:", c.is_leaf)
print("b.detach():", b.detach().is_leaf)
assert a.is_leaf and not b.is_leaf and c.is_leaf
b.sum().backward()
assert a.grad is not None and not b.retains_grad  # (1)!
# --8<-- [end:is-leaf]

# --8<-- [start:grad-fn]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * 3).sum()
print(type(y.grad_fn).__name__)
node, _ = y.grad_fn.next_functions[0]  # (1)!
print(type(node).__name__)
with torch.no_grad():
    z = (w * 3).sum()
assert z.grad_fn is None and w.grad_fn is None  # (2)!
# --8<-- [end:grad-fn]

# --8<-- [start:grad]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * 3).sum().backward()
(w * 3).sum().backward()
print("w.grad:", w.grad)  # (1)!
assert w.grad.tolist() == [6.0, 6.0]
assert not w.grad.requires_grad
w.grad = None  # (2)!
(w * 3).sum().backward()
assert w.grad.tolist() == [3.0, 3.0]
# --8<-- [end:grad]

# --8<-- [start:retain-grad]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
h.retain_grad()  # (1)!
(h * h).sum().backward()
print("h.grad:", h.grad)
print("retains_grad:", h.retains_grad)
assert h.retains_grad and h.grad.tolist() == [4.0, 8.0]
# --8<-- [end:retain-grad]
