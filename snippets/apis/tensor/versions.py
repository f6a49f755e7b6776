# raises: is-inference-version RuntimeError
"""API inventory, torch.Tensor: versions, views and inference tensors."""

# --8<-- [start:version]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w.exp()  # (1)!
v0 = y._version
y.detach().add_(1)  # (2)!
print("y._version:", v0, "->", y._version)
assert y._version == v0 + 1
# --8<-- [end:version]

# --8<-- [start:base]
import torch

w = torch.ones(4, requires_grad=True)
h = w * 2
v = h[:2]
assert v._is_view() and v._base is h  # (1)!
assert not h._is_view() and h._base is None
d = h.detach()
assert not d._is_view() and d._base is None  # (2)!
print("v is a view of h:", v._base is h)
# --8<-- [end:base]

# --8<-- [start:is-inference]
import torch

w = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    t = w * 2  # (1)!
assert t.is_inference() and not t.requires_grad
assert torch.is_inference(input=t) and not w.is_inference()
print("t.is_inference():", t.is_inference())
# --8<-- [end:is-inference]

# --8<-- [start:is-inference-version]
t._version
# --8<-- [end:is-inference-version]
