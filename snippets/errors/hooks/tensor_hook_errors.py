"""Errors: a tensor hook that returns something unlike its gradient."""

# raises: hook-size RuntimeError
# raises: hook-dtype RuntimeError
# raises: hook-not-tensor TypeError

# --8<-- [start:hook-value-fix]
import torch

w = torch.ones(3, requires_grad=True)
h = w * 2
h.register_hook(lambda g: g.clamp(max=0.5))
h.sum().backward()
print(w.grad)
assert w.grad.tolist() == [1.0, 1.0, 1.0]
# --8<-- [end:hook-value-fix]

# --8<-- [start:hook-size]
import torch

w = torch.ones(3, requires_grad=True)
h = w * 2
h.register_hook(lambda g: g[:2])
h.sum().backward()
# --8<-- [end:hook-size]

# --8<-- [start:hook-dtype]
import torch

w = torch.ones(3, requires_grad=True)
h = w * 2
h.register_hook(lambda g: g.double())
h.sum().backward()
# --8<-- [end:hook-dtype]

# --8<-- [start:hook-not-tensor]
import torch

w = torch.ones(3, requires_grad=True)
h = w * 2
h.register_hook(lambda g: g.norm().item())
h.sum().backward()
# --8<-- [end:hook-not-tensor]
