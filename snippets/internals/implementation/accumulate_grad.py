"""Backward calls aten::detach too: AccumulateGrad stores a detached
gradient in a leaf's .grad."""

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
