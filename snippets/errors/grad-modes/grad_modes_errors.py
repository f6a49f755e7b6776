"""Errors: in-place writes to views made in another grad mode."""

# raises: view-no-grad RuntimeError
# raises: view-inference RuntimeError

# --8<-- [start:view-no-grad-fix]
import torch

w = torch.ones(4, requires_grad=True)
y = w * 2
with torch.no_grad():
    v = y[:2]
    v.mul_(10)
print(y)
y2 = w * 2
v2 = y2[:2]
v2.mul_(10)
y2.sum().backward()
print(w.grad)
assert w.grad.tolist() == [20.0, 20.0, 2.0, 2.0]
# --8<-- [end:view-no-grad-fix]

# --8<-- [start:view-no-grad]
import torch

w = torch.ones(4, requires_grad=True)
y = w * 2
with torch.no_grad():
    v = y[:2]
v.mul_(10)
# --8<-- [end:view-no-grad]

# --8<-- [start:view-inference-fix]
import torch

w = torch.ones(4, requires_grad=True)
y = w * 2
with torch.inference_mode():
    print("peek:", y[:2].tolist())
v = y[:2]
v.mul_(10)
y.sum().backward()
print(w.grad)
assert w.grad.tolist() == [20.0, 20.0, 2.0, 2.0]
# --8<-- [end:view-inference-fix]

# --8<-- [start:view-inference]
import torch

w = torch.ones(4, requires_grad=True)
y = w * 2
with torch.inference_mode():
    v = y[:2]
v.mul_(10)
# --8<-- [end:view-inference]
