# raises: error RuntimeError
# raises: device TypeError
"""Seed 002's claims about NumPy conversion."""

# --8<-- [start:error]
import weakref

import numpy as np
import torch

x = torch.rand(3, requires_grad=True)
y = x * 2
assert y.requires_grad
y.numpy()
# --8<-- [end:error]

# --8<-- [start:error-freed]
alive = weakref.ref(y)
del y  # (1)!
print("y freed after the failed call:", alive() is None)
assert alive() is None
# --8<-- [end:error-freed]

# --8<-- [start:shared]
v = torch.zeros(3, requires_grad=True).clone()
arr = v.detach().numpy()  # (1)!
arr[0] = 7.0
print("v after writing the array:", v)
print("v._version:", v._version)
assert v[0].item() == 7.0 and v._version == 0
# --8<-- [end:shared]

# --8<-- [start:device]
m = torch.ones(2, device="meta")  # (1)!
m.numpy()
# --8<-- [end:device]

# --8<-- [start:force]
t = torch.ones(2, requires_grad=True)
forced = t.numpy(force=True)  # (1)!
print("numpy(force=True):", forced, "| shares memory with t:",
      np.shares_memory(forced, t.detach().numpy()))
assert t.requires_grad and forced.ctypes.data == t.data_ptr()
assert np.shares_memory(forced, t.detach().numpy())
# --8<-- [end:force]

# --8<-- [start:order]
w = torch.randn(3, requires_grad=True)
result = w * 2
first_cpu = result.cpu()  # (1)!
first_detach = result.detach().cpu()
print(
    "cpu() first: same object as result:",
    first_cpu is result,
    " requires_grad:",
    first_cpu.requires_grad,
)
print("detach() first: requires_grad:", first_detach.requires_grad)
assert np.array_equal(first_cpu.detach().numpy(), first_detach.numpy())
# --8<-- [end:order]

# --8<-- [start:round-trip]
contour = torch.randn(8, requires_grad=True)
smoothed = np.convolve(
    contour.detach().cpu().numpy(), np.ones(3) / 3, mode="same"
)  # (1)!
new_contour = torch.from_numpy(smoothed).to(contour.device)
print(
    "new_contour.requires_grad:",
    new_contour.requires_grad,
    " grad_fn:",
    new_contour.grad_fn,
)
assert not new_contour.requires_grad
# --8<-- [end:round-trip]
