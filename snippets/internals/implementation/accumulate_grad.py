# warns: create-graph UserWarning
"""Backward calls aten::detach too: in a plain backward AccumulateGrad stores
a detached gradient in a leaf's .grad and adds later gradients into it in
place; with create_graph=True it keeps the gradient's graph and accumulates
out of place, into a new .grad tensor."""

# --8<-- [start:accumulate]
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class Trace(TorchDispatchMode):
    """Record each aten call with the autograd node running it."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        node = torch._C._current_autograd_node()  # (1)!
        name = type(node).__name__ if node is not None else "(no node)"
        self.calls.append((str(func), name))
        return func(*args, **(kwargs or {}))


x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x * 3).sum()
with Trace() as trace:
    loss.backward()
for op, node in trace.calls:
    print(f"{op:22} inside {node}")
assert ("aten.detach.default", "AccumulateGrad") in trace.calls  # (2)!
assert x.grad.grad_fn is None and not x.grad.requires_grad
# --8<-- [end:accumulate]

# --8<-- [start:create-graph]
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x**2).sum().backward(create_graph=True)  # (1)!
print("x.grad:", x.grad.detach(), " requires_grad:", x.grad.requires_grad,
      " has grad_fn:", x.grad.grad_fn is not None)
assert x.grad.requires_grad and x.grad.grad_fn is not None
first, first_ptr = x.grad, x.grad.data_ptr()
(x**2).sum().backward(create_graph=True)  # (2)!
print("x.grad:", x.grad.detach(), " same tensor:", x.grad is first,
      " same memory:", x.grad.data_ptr() == first_ptr)
print("the old x.grad:", first.detach())
assert x.grad is not first and x.grad.data_ptr() != first_ptr
assert torch.equal(first, torch.tensor([2.0, 4.0]))
(gg,) = torch.autograd.grad(x.grad.sum(), x)  # (3)!
print("d(sum of x.grad)/dx:", gg)
assert torch.equal(gg, torch.tensor([4.0, 4.0]))
x.grad = None  # (4)!

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * 3).sum().backward()
first, first_ptr = w.grad, w.grad.data_ptr()
(w * 3).sum().backward()
print("plain backward: w.grad", w.grad, " same tensor:", w.grad is first,
      " same memory:", w.grad.data_ptr() == first_ptr)
assert w.grad is first and w.grad.data_ptr() == first_ptr  # (5)!
assert torch.equal(w.grad, torch.tensor([6.0, 6.0])) and w.grad.grad_fn is None
# --8<-- [end:create-graph]
