# warns: create-graph UserWarning
"""Backward calls aten::detach too: in a plain backward AccumulateGrad stores
a gradient it can take over detached (and copies one it cannot); .grad has
no grad_fn because a plain backward runs with grad mode off. Later gradients
are added into it in place; with create_graph=True it keeps the gradient's
graph and accumulates out of place, into a new .grad tensor."""

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
    print(f"{node}: {op}")
assert ("aten.detach.default", "AccumulateGrad") in trace.calls  # (2)!
assert x.grad.grad_fn is None and not x.grad.requires_grad
# --8<-- [end:accumulate]

# --8<-- [start:grad-mode]
x = torch.tensor([1.0, 2.0], requires_grad=True)
with Trace() as trace:
    x.sum().backward()  # (1)!
ops = [op for op, node in trace.calls if node == "AccumulateGrad"]
for op in ops:
    print("AccumulateGrad:", op)
assert "aten.detach.default" not in ops and "aten.copy_.default" in ops
assert x.grad.grad_fn is None  # (2)!

modes = []
x.register_hook(lambda g: modes.append(torch.is_grad_enabled()))
x.sum().backward()
print("grad mode during backward:", modes)
assert modes == [False]  # (3)!
# --8<-- [end:grad-mode]

# --8<-- [start:create-graph]
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x**2).sum().backward(create_graph=True)  # (1)!
print("x.grad has grad_fn:", x.grad.grad_fn is not None)
assert x.grad.requires_grad and x.grad.grad_fn is not None
first, first_ptr = x.grad, x.grad.data_ptr()
(x**2).sum().backward(create_graph=True)  # (2)!
print("same tensor:", x.grad is first,
      "| same memory:", x.grad.data_ptr() == first_ptr)
print("x.grad now: ", x.grad.detach())
print("the old one:", first.detach())
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
print("plain: same tensor:", w.grad is first,
      "| same memory:", w.grad.data_ptr() == first_ptr)
print("plain: w.grad =", w.grad)
assert w.grad is first and w.grad.data_ptr() == first_ptr  # (5)!
assert torch.equal(w.grad, torch.tensor([6.0, 6.0])) and w.grad.grad_fn is None
# --8<-- [end:create-graph]
