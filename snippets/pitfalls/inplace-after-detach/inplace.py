# raises: raises RuntimeError
# raises: leaf-refuses RuntimeError
# raises: seed-000 RuntimeError
"""In-place writes through a detached alias: the loud case, the silent case,
the fix."""

# --8<-- [start:raises]
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()  # (1)!
d = y.detach()
d.mul_(2)  # (2)!
print("y._version:", y._version)
assert y._version == 1
y.sum().backward()
# --8<-- [end:raises]

# --8<-- [start:leaf-refuses]
a = torch.tensor([1.0], requires_grad=True)
sq = a * a
a.add_(1)  # (1)!
# --8<-- [end:leaf-refuses]

# --8<-- [start:seed-000]
b = a.detach()
b += 1  # (1)!
print("a:", a, " a._version:", a._version)
assert a.item() == 2.0
sq.backward()  # (2)!
# --8<-- [end:seed-000]

# --8<-- [start:silent]
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = w * 2
stats = h.detach()
stats.sub_(stats.mean())  # (1)!
loss = (h * h).sum()  # (2)!
loss.backward()
print("h:", h.detach())
print("loss:", loss.item(), " expected:", ((w.detach() * 2) ** 2).sum().item())
print("w.grad:", w.grad)
assert loss.item() == 8.0
assert torch.equal(w.grad, torch.tensor([-8.0, 0.0, 8.0]))
# --8<-- [end:silent]

# --8<-- [start:fix]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()
d = y.detach().clone()  # (1)!
d.mul_(2)
y.sum().backward()
print("y._version:", y._version, " d.data_ptr() == y.data_ptr():",
      d.data_ptr() == y.data_ptr())
print("x.grad:", x.grad)
assert y._version == 0
assert torch.allclose(x.grad, y.detach() * (1 - y.detach()))
# --8<-- [end:fix]
