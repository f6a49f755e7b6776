"""detach() on parameters, on non-contiguous tensors, and on views."""

# --8<-- [start:parameter]
import torch
from torch import nn

layer = nn.Linear(3, 2)
p = layer.weight
d = p.detach()
print("type(p):         ", type(p).__name__)
print("type(p.detach()):", type(d).__name__)  # (1)!
print("type(p.data):    ", type(p.data).__name__)
assert isinstance(p, nn.Parameter) and not isinstance(d, nn.Parameter)
assert type(d) is torch.Tensor and d.data_ptr() == p.data_ptr()
assert not d.requires_grad
holder = nn.Module()
holder.w = d
assert "w" not in dict(holder.named_parameters())


class MySub(torch.Tensor):  # (2)!
    pass


s = torch.ones(2).as_subclass(MySub)
print("type(s.detach()):", type(s.detach()).__name__)
assert type(s.detach()) is MySub
# --8<-- [end:parameter]

# --8<-- [start:layout]
t = torch.arange(12, dtype=torch.float64).reshape(3, 4).t()  # (1)!
t.requires_grad_()
dt = t.detach()
print("dtype:  ", t.dtype, dt.dtype)
print("device: ", t.device, dt.device)
print("stride: ", t.stride(), dt.stride())
print("contiguous:", t.is_contiguous(), dt.is_contiguous())  # (2)!
assert (dt.dtype, dt.device, dt.stride(), dt.shape) == (
    t.dtype, t.device, t.stride(), t.shape
)
assert not dt.is_contiguous()
assert dt.contiguous().data_ptr() != dt.data_ptr()
# --8<-- [end:layout]

# --8<-- [start:views]
x = torch.arange(6.0, requires_grad=True)
y = x * 1
v = y[2:4]  # (1)!
dv = v.detach()
print("v._is_view():", v._is_view())
print("dv._is_view():", dv._is_view(), "| dv._base:", dv._base)  # (2)!
print("dv.storage_offset():", dv.storage_offset())
print("same storage as y:",
      dv.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
dv.fill_(-1.0)  # (3)!
print("y._version:", y._version, "| y:", y.detach())
assert v._is_view() and v._base is y
assert not dv._is_view() and dv._base is None
assert y[2].item() == -1.0 and y._version == dv._version == 1
# --8<-- [end:views]
