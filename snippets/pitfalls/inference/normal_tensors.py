# raises: caught RuntimeError
"""Inside inference_mode, only new allocations are inference tensors: views,
detach() and in-place results of a normal tensor stay normal tensors that
share its version counter, and an in-place write there is still caught."""

# --8<-- [start:normal]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = x * 1
with torch.inference_mode():
    fresh = torch.ones(3)  # (1)!
    computed = a * 2
    view = a.view(-1)  # (2)!
    alias = a.detach()
for name, t in [("torch.ones(3)", fresh), ("a * 2", computed),
                ("a.view(-1)", view), ("a.detach()", alias)]:
    print(f"{name}: is_inference={t.is_inference()},"
          f" requires_grad={t.requires_grad}")
assert fresh.is_inference() and computed.is_inference()
assert not view.is_inference() and not alias.is_inference()
assert view.requires_grad and view._is_view() and view._base is a
a.add_(1)
print("after a.add_(1):", a._version, view._version, alias._version)
assert a._version == view._version == alias._version == 1  # (3)!
# --8<-- [end:normal]

# --8<-- [start:caught]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()
with torch.inference_mode():
    y.detach().mul_(2)  # (1)!
print("y._version:", y._version)
assert y._version == 1
y.sum().backward()
# --8<-- [end:caught]
