"""FAQ: errors and surprises of in-place operations."""

# --8<-- [start:inplace-modified]
import textwrap

import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()  # (1)!
loss = y.sum()
y.add_(1)  # (2)!
print("y._version:", y._version)
try:
    loss.backward()
except RuntimeError as err:
    msg = f"RuntimeError: {err}"
    print(textwrap.fill(msg, 72, break_on_hyphens=False))
else:
    raise AssertionError("exp saved its output; changing it must raise")

y = x.exp()
y = y + 1  # (3)!
y.sum().backward()
print("out of place: x.grad =", x.grad)
assert torch.allclose(x.grad, x.detach().exp())
# --8<-- [end:inplace-modified]

# --8<-- [start:relu-inplace]
import textwrap

import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
s = x.sigmoid()  # (1)!
torch.relu_(s)
try:
    s.sum().backward()
except RuntimeError as err:
    print(textwrap.fill(f"sigmoid, then relu_: RuntimeError: {err}"
                        .split(" Hint")[0], 72, break_on_hyphens=False))
else:
    raise AssertionError("relu_ overwrote what sigmoid saved")

torch.manual_seed(0)
lin = torch.nn.Linear(3, 3)
grads = []
for inplace in (True, False):  # (2)!
    lin.zero_grad()
    torch.nn.ReLU(inplace=inplace)(lin(x)).sum().backward()
    grads.append(lin.weight.grad.clone())
print("after Linear, inplace=True and False agree:",
      torch.equal(grads[0], grads[1]))
assert torch.equal(grads[0], grads[1])
# --8<-- [end:relu-inplace]

# --8<-- [start:leaf-inplace]
import textwrap

import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w ** 2).sum().backward()
try:
    w -= 0.1 * w.grad  # (1)!
except RuntimeError as err:
    print(textwrap.fill(f"RuntimeError: {err}", 72, break_on_hyphens=False))
else:
    raise AssertionError("in-place on a leaf that requires grad")

with torch.no_grad():  # (2)!
    w -= 0.1 * w.grad
print("after the update:", w.tolist(), "| still a leaf:", w.is_leaf)
assert torch.allclose(w, torch.tensor([0.8, 1.6])) and w.is_leaf
# --8<-- [end:leaf-inplace]

# --8<-- [start:view-leaf-inplace]
import textwrap

import torch

weight = torch.nn.Parameter(torch.zeros(2, 3))
try:
    weight[:, 0] = 1.0  # (1)!
except RuntimeError as err:
    print(textwrap.fill(f"RuntimeError: {err}", 72, break_on_hyphens=False))
else:
    raise AssertionError("writing into a view of a leaf must raise")

with torch.no_grad():  # (2)!
    weight[:, 0] = 1.0
print("edited in place:", weight[:, 0].tolist(), "| leaf:", weight.is_leaf)
assert weight.is_leaf and weight[:, 0].tolist() == [1.0, 1.0]

pe = weight.clone()  # (3)!
pe[:, 1] = 5.0
pe.sum().backward()
print("through clone(): weight.grad =", weight.grad.tolist())
assert torch.equal(weight.grad[:, 1], torch.zeros(2))
# --8<-- [end:view-leaf-inplace]

# --8<-- [start:inplace-when-allowed]
import torch


def modify_then_backward(which):
    x = torch.arange(3.0, requires_grad=True)
    u = 2 * x
    e, s, tens = u.exp(), u ** 2, 10 * u  # (1)!
    {"e": e, "u": u, "tens": tens}[which].add_(1)  # (2)!
    try:
        (e.sum() + s.sum() + tens.sum()).backward()
    except RuntimeError:
        return "RuntimeError"
    return "works"


results = {w: modify_then_backward(w) for w in ("e", "u", "tens")}
for which, outcome in results.items():
    print(f"change {which:4} in place, then backward: {outcome}")
assert results == {"e": "RuntimeError", "u": "RuntimeError",
                   "tens": "works"}
# --8<-- [end:inplace-when-allowed]
