"""Errors: grad_dtype read or set on a tensor that is not a leaf, or changed
while .grad holds a gradient of another dtype."""

# stderr: setting grad_dtype on a non-leaf also warns about its .grad
# raises: grad-dtype-non-leaf-get RuntimeError
# raises: grad-dtype-non-leaf-set RuntimeError
# raises: grad-dtype-existing RuntimeError

# --8<-- [start:grad-dtype-fix]
import torch

w = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)
w.grad_dtype = torch.float32
(w * 3).sum().backward()
print(w.grad, w.grad_dtype)
assert w.grad.dtype == torch.float32 and w.grad.tolist() == [3.0, 3.0]
# --8<-- [end:grad-dtype-fix]

# --8<-- [start:grad-dtype-non-leaf-get]
import torch

w = torch.ones(2, requires_grad=True)
h = w * 2
h.grad_dtype
# --8<-- [end:grad-dtype-non-leaf-get]

# --8<-- [start:grad-dtype-non-leaf-set]
import torch

w = torch.ones(2, requires_grad=True)
h = w * 2
h.grad_dtype = torch.float64
# --8<-- [end:grad-dtype-non-leaf-set]

# --8<-- [start:grad-dtype-existing]
import torch

w = torch.ones(2, requires_grad=True)
(w * 2).sum().backward()
w.grad_dtype = torch.float64
# --8<-- [end:grad-dtype-existing]
