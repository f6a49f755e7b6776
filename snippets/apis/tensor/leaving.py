# raises: numpy RuntimeError
# raises: array RuntimeError
"""API inventory, torch.Tensor: from the graph to Python and NumPy."""

# --8<-- [start:numpy]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
w.numpy()
# --8<-- [end:numpy]

# --8<-- [start:numpy-force]
a = w.numpy(force=True)  # (1)!
b = w.detach().numpy()  # (2)!
a[0] = 10.0
print("w:", w.detach())
print("b:", b)
assert w[0].item() == 10.0 and b[0] == 10.0
# --8<-- [end:numpy-force]

# --8<-- [start:array]
import numpy as np
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
np.asarray(w * 2)
# --8<-- [end:array]

# --8<-- [start:item]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
total = 0.0
for _ in range(3):
    loss = (w * w).sum()
    total += loss.item()  # (1)!
assert isinstance(total, float) and total == 15.0
values = (w * 2).tolist()  # (2)!
assert values == [2.0, 4.0] and isinstance(values[0], float)
print("total:", total)
print("tolist:", values)
# --8<-- [end:item]
