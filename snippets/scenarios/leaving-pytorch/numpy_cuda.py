# requires: cuda
# raises: cuda TypeError
# raises: cuda-grad TypeError
"""The real CUDA case: .numpy() does not copy to the CPU by itself."""

# --8<-- [start:cuda]
import torch

t = torch.ones(3, device="cuda")
t.numpy()  # (1)!
# --8<-- [end:cuda]

# --8<-- [start:cuda-grad]
w = torch.ones(3, device="cuda", requires_grad=True)
y = w * 2
y.numpy()  # (1)!
# --8<-- [end:cuda-grad]

# --8<-- [start:cuda-idiom]
moved = y.cpu()  # (1)!
print("y.cpu().grad_fn:", type(moved.grad_fn).__name__)
assert moved.grad_fn is not None
a = y.detach().cpu().numpy()  # (2)!
b = y.numpy(force=True)
print(a, b, (a == b).all())
assert (a == b).all()
# --8<-- [end:cuda-idiom]
