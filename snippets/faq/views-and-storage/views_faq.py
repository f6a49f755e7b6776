"""FAQ: views, storage and aliasing (multi-output views, NumPy aliases)."""

# raises: unbind-inplace RuntimeError
# raises: split-chunk-inplace RuntimeError
# raises: numpy-write-bypasses-version RuntimeError

# --8<-- [start:unbind-inplace]
import torch

torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)
kernels = w * 1.0
for i in range(len(kernels)):
    kernels[i].mul_(2)  # (1)!
kernels.sum().backward()
print("w.grad:", w.grad.tolist())
assert torch.equal(w.grad, torch.full((3, 2), 2.0))

img = kernels.detach().clone()  # (2)!
for row in img:
    row.mul_(0.5)
print("a detached copy takes in-place writes:", img.shape)
assert torch.equal(img, kernels.detach() * 0.5)

rows = [r for r in kernels]
print("grad_fn of a row:", type(rows[0].grad_fn).__name__)
for row in kernels:  # (3)!
    row.mul_(2)
# --8<-- [end:unbind-inplace]

# --8<-- [start:split-chunk-inplace]
import torch

x = torch.randn(6, requires_grad=True)
h = x * 2
a, b = h.split(3)
a = a.clone()  # (1)!
a.add_(1)
(a.sum() + b.sum()).backward()
print("x.grad:", x.grad.tolist())
assert torch.equal(x.grad, torch.full((6,), 2.0))

first = h.chunk(3)[0]  # (2)!
first.unsqueeze(0).mul_(2)  # (3)!
# --8<-- [end:split-chunk-inplace]


# Not shown: the outputs of split and chunk themselves, and a view of an
# unbind output, refuse in-place writes too.
def refuses_inplace(write):
    try:
        write()
    except RuntimeError:
        return True
    return False


assert refuses_inplace(lambda: h.split(2)[0].add_(1))
assert refuses_inplace(lambda: h.chunk(3)[0].add_(1))
assert refuses_inplace(lambda: h.unbind()[0].unsqueeze(0).mul_(2))

# --8<-- [start:slice-keeps-storage]
import io

import torch

big = torch.randn(1000, 1000)
head = big[:2].detach()  # (1)!
print("head:", tuple(head.shape),
      "storage bytes:", head.untyped_storage().nbytes())
assert head.untyped_storage().nbytes() == big.numel() * 4
assert head.untyped_storage().data_ptr() == big.untyped_storage().data_ptr()

copy = big[:2].clone()  # (2)!
print("clone storage bytes:", copy.untyped_storage().nbytes())
assert copy.untyped_storage().nbytes() == 2 * 1000 * 4

for name, t in [("slice", head), ("clone", copy)]:
    buf = io.BytesIO()
    torch.save(t, buf)  # (3)!
    print(f"torch.save of the {name}: {buf.tell() // 1000} kB")
    assert (buf.tell() > 4_000_000) == (name == "slice")
# --8<-- [end:slice-keeps-storage]

# --8<-- [start:numpy-write-bypasses-version]
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()  # (1)!
arr = y.detach().numpy()
before = y._version
arr *= 2  # (2)!
print("y now:", [round(v, 4) for v in y.tolist()])
print("version before/after:", before, y._version)
assert y._version == before
y.sum().backward()  # (3)!
print("x.grad:", [round(v, 4) for v in x.grad.tolist()])
right = torch.sigmoid(x.detach()) * (1 - torch.sigmoid(x.detach()))
assert not torch.allclose(x.grad, right)

x.grad = None
y = x.sigmoid()
y.detach().mul_(2)  # (4)!
y.sum().backward()
# --8<-- [end:numpy-write-bypasses-version]
