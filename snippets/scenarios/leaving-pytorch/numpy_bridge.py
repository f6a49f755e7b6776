# raises: errors RuntimeError
# raises: errors-device TypeError
"""Leaving PyTorch: the errors of .numpy(), the idiom, force=True, shared
memory, and a NumPy round trip that autograd cannot see through."""

# --8<-- [start:errors]
import numpy as np
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
y = w * 2
assert y.requires_grad
y.numpy()
# --8<-- [end:errors]

# --8<-- [start:errors-device]
on_meta = torch.empty(3, device="meta", requires_grad=True)  # (1)!
on_meta.numpy()  # (2)!
# --8<-- [end:errors-device]

# --8<-- [start:idiom]
a = y.detach().cpu().numpy()  # (1)!
shares = np.shares_memory(a, y.detach().numpy())
print(type(a).__name__, a.dtype, "| shares memory with y:", shares)
assert a.ctypes.data == y.data_ptr()  # (2)!

b = y.numpy(force=True)  # (3)!
print("numpy(force=True) shares memory with y:", b.ctypes.data == y.data_ptr())
assert y.requires_grad and b.ctypes.data == y.data_ptr()
assert np.shares_memory(a, b)

with torch.no_grad():  # (4)!
    print("inside no_grad:", type(y.numpy()).__name__)
# --8<-- [end:idiom]

# --8<-- [start:array-writes]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
e = x.exp()
arr = e.detach().numpy()
arr *= 2  # (1)!
print("e._version:", e._version)
print("e:", e.detach())
assert torch.equal(e.detach(), 2 * x.detach().exp()) and e._version == 0
e.sum().backward()  # (2)!
print("x.grad:", x.grad)
print("true:  ", x.detach().exp())
assert torch.allclose(x.grad, 2 * x.detach().exp())
# --8<-- [end:array-writes]

# --8<-- [start:from-numpy]
arr = np.zeros(3, dtype=np.float32)
shared = torch.from_numpy(arr)  # (1)!
copied = torch.tensor(arr)  # (2)!
arr[0] = 7.0
print("from_numpy:", shared.tolist(), "| torch.tensor:", copied.tolist())
assert shared[0].item() == 7.0 and copied[0].item() == 0.0
# --8<-- [end:from-numpy]

# --8<-- [start:blur]
def gaussian_kernel(size: int = 5, sigma: float = 1.0) -> np.ndarray:
    r = np.arange(size) - size // 2
    k = np.exp(-(r ** 2) / (2 * sigma ** 2))
    return (k / k.sum()).astype(np.float32)


def blur_numpy(img: np.ndarray) -> np.ndarray:  # (1)!
    k = gaussian_kernel()
    pad = np.pad(img, 2, mode="reflect")
    rows = sum(k[i] * pad[:, i:i + img.shape[1]] for i in range(5))
    return sum(k[i] * rows[i:i + img.shape[0], :] for i in range(5))


image = torch.rand(8, 8, requires_grad=True)
out = torch.from_numpy(blur_numpy(image.detach().cpu().numpy()))  # (2)!
print("round trip: requires_grad", out.requires_grad, "| grad_fn", out.grad_fn)
assert out.grad_fn is None and not out.requires_grad  # (3)!
# --8<-- [end:blur]

# --8<-- [start:differentiable]
k = torch.from_numpy(gaussian_kernel())
kernel2d = (k[:, None] * k[None, :])[None, None]
padded = torch.nn.functional.pad(image[None, None], (2, 2, 2, 2),
                                 mode="reflect")
out_torch = torch.nn.functional.conv2d(padded, kernel2d)[0, 0]  # (1)!
print("same values as the NumPy blur:",
      torch.allclose(out_torch, out, atol=1e-6))
out_torch.sum().backward()
print("image.grad is set:", image.grad is not None,
      "| shape", tuple(image.grad.shape))
assert torch.allclose(out_torch, out, atol=1e-6) and image.grad is not None
# --8<-- [end:differentiable]
