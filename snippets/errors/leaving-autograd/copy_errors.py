"""Warnings: copying a tensor with torch.tensor or torch.asarray, and
turning one that requires grad into a Python number."""

# warns: copy-construct UserWarning
# warns: asarray-requires-grad UserWarning
# warns: to-scalar UserWarning

# --8<-- [start:copy-construct-fix]
import torch

w = torch.ones(3, requires_grad=True)
c = w.detach().clone()
t = w.detach().clone().requires_grad_(True)
print(c.requires_grad, t.is_leaf, c.data_ptr() != w.data_ptr())
assert not c.requires_grad and t.is_leaf and c.data_ptr() != w.data_ptr()
# --8<-- [end:copy-construct-fix]

# --8<-- [start:copy-construct]
import torch

w = torch.ones(3, requires_grad=True)
c = torch.tensor(w)
print(c.requires_grad)
# --8<-- [end:copy-construct]

# --8<-- [start:asarray-requires-grad-fix]
import torch

w = torch.ones(3, requires_grad=True)
a = torch.asarray(w, requires_grad=False)
print(a.requires_grad, a.data_ptr() == w.data_ptr())
assert not a.requires_grad and a.data_ptr() == w.data_ptr()
# --8<-- [end:asarray-requires-grad-fix]

# --8<-- [start:asarray-requires-grad]
import torch

w = torch.ones(3, requires_grad=True)
a = torch.asarray(w)
print(a.requires_grad)
# --8<-- [end:asarray-requires-grad]

# --8<-- [start:to-scalar-fix]
import torch

w = torch.ones(1, requires_grad=True)
loss = (w * 3).sum()
value = loss.item()
print(value, type(value).__name__)
assert value == 3.0
# --8<-- [end:to-scalar-fix]

# --8<-- [start:to-scalar]
import torch

w = torch.ones(1, requires_grad=True)
value = float(w * 3)
print(value)
# --8<-- [end:to-scalar]
