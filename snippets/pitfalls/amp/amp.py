# raises: numpy TypeError
# warns: api FutureWarning
"""Autocast and detach on CPU (bfloat16): dtypes, what detach keeps, the
current API."""

# --8<-- [start:dtypes]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(8, 4)
inp = torch.randn(2, 8)
with torch.autocast("cpu", dtype=torch.bfloat16):  # (1)!
    output = model(inp)
    detached = output.detach()
    upcast = output.detach().float()  # (2)!
print("output:", output.dtype)
print("detached:", detached.dtype)
print(".float():", upcast.dtype)
print("detach shares storage:", detached.data_ptr() == output.data_ptr())
print(".float() shares storage:", upcast.data_ptr() == output.data_ptr())
assert detached.dtype == torch.bfloat16
assert upcast.dtype == torch.float32 and upcast.data_ptr() != output.data_ptr()
assert torch.get_autocast_dtype("cpu") == torch.bfloat16
assert model.weight.dtype == torch.float32
with torch.no_grad():
    exact = model(inp)
print("equals the float32 result:", torch.equal(upcast, exact))
assert torch.equal(upcast, detached.float()) and not torch.equal(upcast, exact)
# --8<-- [end:dtypes]

# --8<-- [start:numpy]
detached.numpy()  # (1)!
# --8<-- [end:numpy]

# --8<-- [start:numpy-float]
array = upcast.numpy()
print("after .float():", array.dtype)
assert str(array.dtype) == "float32"
# --8<-- [end:numpy-float]

# --8<-- [start:grad]
output.float().sum().backward()  # (1)!
print("model.weight.grad.dtype:", model.weight.grad.dtype)
assert model.weight.grad.dtype == torch.float32
# --8<-- [end:grad]

# --8<-- [start:api]
with torch.cuda.amp.autocast():  # (1)!
    pass
assert torch.autocast is torch.amp.autocast  # (2)!
# --8<-- [end:api]
