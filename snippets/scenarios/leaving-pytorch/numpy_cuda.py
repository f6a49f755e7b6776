# requires: cuda
"""The real CUDA case: .numpy() does not copy to the CPU by itself."""

# --8<-- [start:cuda]
import torch

t = torch.ones(3, device="cuda")
try:
    t.numpy()
except TypeError as err:
    print("TypeError:", err)  # (1)!
else:
    raise AssertionError(".numpy() on a CUDA tensor should raise")

w = torch.ones(3, device="cuda", requires_grad=True)
y = w * 2
try:
    y.numpy()
except TypeError as err:
    print("requires grad too -> TypeError:", str(err)[:40], "...")  # (2)!
else:
    raise AssertionError(
        ".numpy() on a CUDA tensor that requires grad should raise"
    )

moved = y.cpu()  # (3)!
print("y.cpu().grad_fn:", type(moved.grad_fn).__name__)
assert type(moved.grad_fn).__name__ == "ToCopyBackward0"
a = y.detach().cpu().numpy()  # (4)!
b = y.numpy(force=True)
print(a, b, (a == b).all())
# --8<-- [end:cuda]
