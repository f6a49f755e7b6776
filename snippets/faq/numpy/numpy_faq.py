"""FAQ: tensors to NumPy and back."""

# raises: numpy-requires-grad RuntimeError

# --8<-- [start:numpy-requires-grad]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 3
a = y.detach().numpy()  # (1)!
print("array:", a)
print("shares memory with y:", a.ctypes.data == y.data_ptr())
assert a.ctypes.data == y.data_ptr()
a[0] = 0.0  # (2)!
print("y._version:", y._version, "| y:", y.detach())
assert y[0].item() == 0.0 and y._version == 0

y.numpy()  # (3)!
# --8<-- [end:numpy-requires-grad]

# --8<-- [start:numpy-cuda]
import numpy as np
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 3
copy_first = y.to(torch.float64)  # (1)!
detach_first = y.detach().to(torch.float64)  # (2)!
print("copy, then detach:", type(copy_first.grad_fn).__name__)
print("detach, then copy:", detach_first.grad_fn)
assert copy_first.grad_fn is not None and detach_first.grad_fn is None
print("on the CPU, .cpu() returns the tensor itself:", y.cpu() is y)
assert y.cpu() is y
a = y.detach().cpu().numpy()  # (3)!
assert np.allclose(a, [3.0, 6.0])
# --8<-- [end:numpy-cuda]

# --8<-- [start:numpy-shares-memory]
import numpy as np
import torch

t = torch.zeros(3)
a = t.numpy()
a[0] = 7.0  # (1)!
print("tensor after writing the array:", t.tolist())
assert t[0].item() == 7.0

strided = torch.arange(6.0)[::2]  # (2)!
b = strided.numpy()
b[0] = 100.0
print("non-contiguous:", strided.is_contiguous(),
      "| tensor:", strided.tolist())
assert strided[0].item() == 100.0

arr = np.zeros(2, dtype=np.float32)
shared, copied = torch.from_numpy(arr), torch.tensor(arr)  # (3)!
arr[1] = 5.0
print("from_numpy:", shared.tolist())
print("torch.tensor:", copied.tolist())
assert shared[1].item() == 5.0 and copied[1].item() == 0.0
# --8<-- [end:numpy-shares-memory]
