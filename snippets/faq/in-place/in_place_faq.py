"""FAQ: errors and surprises of in-place operations."""

# raises: inplace-modified RuntimeError
# raises: relu-inplace RuntimeError
# raises: leaf-inplace RuntimeError
# raises: view-leaf-inplace RuntimeError
# raises: inplace-when-allowed RuntimeError

# --8<-- [start:inplace-modified]
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()
y = y + 1  # (1)!
y.sum().backward()
print("out of place: x.grad =", x.grad)
assert torch.allclose(x.grad, x.detach().exp())

y = x.exp()  # (2)!
loss = y.sum()
y.add_(1)  # (3)!
print("y._version:", y._version)
loss.backward()
# --8<-- [end:inplace-modified]

# --8<-- [start:relu-inplace]
import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
torch.manual_seed(0)
lin = torch.nn.Linear(3, 3)
grads = []
for inplace in (True, False):  # (1)!
    lin.zero_grad()
    torch.nn.ReLU(inplace=inplace)(lin(x)).sum().backward()
    grads.append(lin.weight.grad.clone())
print("after Linear, inplace=True and False agree:",
      torch.equal(grads[0], grads[1]))
assert torch.equal(grads[0], grads[1])

s = x.sigmoid()  # (2)!
torch.relu_(s)
s.sum().backward()
# --8<-- [end:relu-inplace]

# --8<-- [start:leaf-inplace]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w ** 2).sum().backward()
with torch.no_grad():  # (1)!
    w -= 0.1 * w.grad
print("after the update:", w.tolist(), "| still a leaf:", w.is_leaf)
assert torch.allclose(w, torch.tensor([0.8, 1.6])) and w.is_leaf

w -= 0.1 * w.grad  # (2)!
# --8<-- [end:leaf-inplace]

# --8<-- [start:view-leaf-inplace]
import torch

weight = torch.nn.Parameter(torch.zeros(2, 3))
with torch.no_grad():  # (1)!
    weight[:, 0] = 1.0
print("edited in place:", weight[:, 0].tolist(), "| leaf:", weight.is_leaf)
assert weight.is_leaf and weight[:, 0].tolist() == [1.0, 1.0]

pe = weight.clone()  # (2)!
pe[:, 1] = 5.0
pe.sum().backward()
print("through clone(): weight.grad =", weight.grad.tolist())
assert torch.equal(weight.grad[:, 1], torch.zeros(2))

weight[:, 0] = 1.0  # (3)!
# --8<-- [end:view-leaf-inplace]

# --8<-- [start:inplace-when-allowed]
import torch


def modify_then_backward(which):
    x = torch.arange(3.0, requires_grad=True)
    u = 2 * x
    e, s, tens = u.exp(), u ** 2, 10 * u  # (1)!
    {"e": e, "u": u, "tens": tens}[which].add_(1)  # (2)!
    (e.sum() + s.sum() + tens.sum()).backward()
    return x.grad


grad = modify_then_backward("tens")
print("change tens in place, then backward: works")
print("x.grad =", grad)
x = torch.arange(3.0)
assert torch.allclose(grad, 2 * (2 * x).exp() + 8 * x + 20)
modify_then_backward("u")
# --8<-- [end:inplace-when-allowed]


# Not shown: changing e (saved by exp as its output) raises too.
try:
    modify_then_backward("e")
except RuntimeError:
    pass
else:
    raise AssertionError("exp saved its output e; changing it must raise")
