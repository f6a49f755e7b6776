# raises: detach RuntimeError
# raises: no-grad-update RuntimeError
"""`.data` skips the version-counter check: a wrong gradient, no error."""

# --8<-- [start:wrong]
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()  # (1)!
y.data.mul_(2)  # (2)!
y.sum().backward()
wrong = x.grad.clone()

x_ref = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
s = x_ref.sigmoid()
s.sum().backward()
right = x_ref.grad

print("gradient with .data:", wrong)
print("correct gradient:   ", right)
assert not torch.allclose(wrong, right)
# --8<-- [end:wrong]

# --8<-- [start:detach]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()
y.detach().mul_(2)  # (1)!
y.sum().backward()
# --8<-- [end:detach]

# --8<-- [start:new-object]
p = torch.ones(3, requires_grad=True)
print("p.data is p:", p.data is p, " p.data is p.data:", p.data is p.data)
print("same storage:", p.data.data_ptr() == p.data_ptr())
print("p.data.requires_grad:", p.data.requires_grad)
assert p.data is not p and p.data is not p.data
assert p.data.data_ptr() == p.data_ptr()
v = p.clone()
v.data.add_(1)  # (1)!
print("v._version after v.data.add_(1):", v._version)
assert v._version == 0
# --8<-- [end:new-object]

# --8<-- [start:no-grad-update]
param = torch.nn.Parameter(torch.ones(3))
pending = (param * param).sum()
with torch.no_grad():
    param.add_(1)  # (1)!
print("param._version:", param._version)
pending.backward()
# --8<-- [end:no-grad-update]
