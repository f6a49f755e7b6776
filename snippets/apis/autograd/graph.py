# raises: disable-saved-tensors-hooks RuntimeError
"""API inventory, torch.autograd.graph: saved-tensor hooks, nodes and edges."""

# --8<-- [start:saved-tensors-hooks]
import torch
from torch.autograd.graph import saved_tensors_hooks

shapes = []


def pack(t):
    shapes.append(tuple(t.shape))
    return t.to(torch.bfloat16)  # (1)!


def unpack(t):
    return t.to(torch.float32)


x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = (x * w).sum()  # (2)!
y.backward()
print("packed:", shapes)
print("x.grad:", x.grad)
assert shapes == [(2,), (2,)] and x.grad.tolist() == [3.0, 4.0]
# --8<-- [end:saved-tensors-hooks]

# --8<-- [start:saved-tensors-hooks-output]
import weakref

freed = {}
hooks = {"t": lambda t: t, "t.detach()": lambda t: t.detach()}
for name, pack in hooks.items():
    with saved_tensors_hooks(pack, lambda t: t):
        y = x.exp()  # (1)!
    ref = weakref.ref(y)
    del y
    freed[name] = ref() is None
print("freed after del:", freed)
assert freed == {"t": False, "t.detach()": True}
# --8<-- [end:saved-tensors-hooks-output]

# --8<-- [start:save-on-cpu]
import torch
from torch.autograd.graph import save_on_cpu

x = torch.tensor([1.0, 2.0], requires_grad=True)
with save_on_cpu(pin_memory=False):  # (1)!
    y = (x.exp() * x).sum()
y.backward()
expected = (x.detach() + 1) * x.detach().exp()
assert torch.allclose(x.grad, expected)
print("x.grad matches:", torch.allclose(x.grad, expected))
# --8<-- [end:save-on-cpu]

# --8<-- [start:disable-saved-tensors-hooks]
import torch
from torch.autograd.graph import (
    disable_saved_tensors_hooks,
    saved_tensors_hooks,
)

message = "this library manages saved tensors itself"
with disable_saved_tensors_hooks(error_message=message):  # (1)!
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
# --8<-- [end:disable-saved-tensors-hooks]

# --8<-- [start:allow-mutation]
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

x = torch.tensor([0.0, 1.0], requires_grad=True)
with allow_mutation_on_saved_tensors():
    y = x.exp()
    y.mul_(2)  # (1)!
    y.sum().backward()
assert torch.allclose(x.grad, 2 * x.detach().exp())  # (2)!
print("x.grad:", x.grad)
# --8<-- [end:allow-mutation]

# --8<-- [start:node]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w.exp() * 2).sum()
node = y.grad_fn
print(node.name(), "->",
      [n.name() for n, _ in node.next_functions])  # (1)!
node.metadata["step"] = 7  # (2)!
assert y.grad_fn.metadata == {"step": 7}
# --8<-- [end:node]

# --8<-- [start:node-hooks]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w.exp() * 2
seen = []
y.grad_fn.register_prehook(lambda grad_outputs: seen.append("pre"))
y.grad_fn.register_hook(
    lambda grad_inputs, grad_outputs: seen.append("post"))  # (1)!
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
acc.register_prehook(lambda g: (g[0] * 0,))  # (2)!
y.sum().backward()
print("hooks ran:", seen)
print("w.grad:", w.grad)
assert seen == ["pre", "post"] and w.grad.tolist() == [0.0, 0.0]
# --8<-- [end:node-hooks]

# --8<-- [start:multi-grad-hook]
import torch
from torch.autograd.graph import register_multi_grad_hook

a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
calls = []


def both_ready(grads):
    calls.append([g is not None for g in grads])  # (1)!


register_multi_grad_hook((a, b), both_ready)
(a * 2).sum().backward()  # (2)!
print("called with:", calls)
assert calls == [[True, False]]
# --8<-- [end:multi-grad-hook]

# --8<-- [start:gradient-edge]
import torch
from torch.autograd.graph import get_gradient_edge

w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 3
edge = get_gradient_edge(h)  # (1)!
loss = (h ** 2).sum()
del h
(g_h,) = torch.autograd.grad(loss, edge, retain_graph=True)
print("dloss/dh:", g_h)
assert g_h.tolist() == [6.0, 12.0] and w.grad is None
# --8<-- [end:gradient-edge]

# --8<-- [start:increment-version]
import torch
from torch.autograd.graph import increment_version

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w.exp()
before = y._version
y.detach().numpy()[0] = 0.0  # (1)!
assert y._version == before
increment_version(y)  # (2)!
assert y._version == before + 1
print("y._version:", before, "->", y._version)
# --8<-- [end:increment-version]
