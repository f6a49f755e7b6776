"""Errors: hooks on a backward node, an unpack hook, global module hooks and a
backward pre hook that return the wrong thing."""

# raises: node-hook-none RuntimeError
# raises: node-hook-tuple TypeError
# raises: node-hook-count RuntimeError
# raises: unpack-hook-type TypeError
# raises: global-hook-mix RuntimeError
# raises: pre-hook-count RuntimeError
# warns: non-full-hook-dict FutureWarning

# --8<-- [start:node-hook-fix]
import torch

w = torch.ones(2, requires_grad=True)
y = w * 2
seen = []
y.grad_fn.register_hook(lambda gin, gout: seen.append(len(gin)))
y.sum().backward()
print(seen, w.grad)
assert seen == [2] and w.grad.tolist() == [2.0, 2.0]
# --8<-- [end:node-hook-fix]

# --8<-- [start:node-hook-none]
import torch

w = torch.ones(2, requires_grad=True)
y = w * 2
y.grad_fn.register_hook(lambda gin, gout: (gin[0], gin[0]))
y.sum().backward()
# --8<-- [end:node-hook-none]

# --8<-- [start:node-hook-tuple]
import torch

w = torch.ones(2, requires_grad=True)
y = w * 2
y.grad_fn.register_hook(lambda gin, gout: gin[0])
y.sum().backward()
# --8<-- [end:node-hook-tuple]

# --8<-- [start:node-hook-count]
import torch

w = torch.ones(2, requires_grad=True)
y = w * 2
y.grad_fn.register_hook(lambda gin, gout: (gin[0],))
y.sum().backward()
# --8<-- [end:node-hook-count]

# --8<-- [start:unpack-hook-fix]
import torch

with torch.autograd.graph.saved_tensors_hooks(
    lambda t: t.to(torch.float16), lambda t: t.to(torch.float32)
):
    w = torch.ones(2, requires_grad=True)
    y = w.sin()
y.sum().backward()
print(w.grad)
assert torch.allclose(w.grad, torch.cos(torch.ones(2)), atol=1e-3)
# --8<-- [end:unpack-hook-fix]

# --8<-- [start:unpack-hook-type]
import torch

with torch.autograd.graph.saved_tensors_hooks(
    lambda t: t.tolist(), lambda saved: saved
):
    w = torch.ones(2, requires_grad=True)
    y = w.sin()
y.sum().backward()
# --8<-- [end:unpack-hook-type]

# --8<-- [start:pre-hook-count]
import torch

lin = torch.nn.Linear(2, 2)
lin.register_full_backward_pre_hook(lambda m, gout: (gout[0], gout[0]))
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
# --8<-- [end:pre-hook-count]

# --8<-- [start:non-full-hook-dict]
import torch


class Heads(torch.nn.Module):
    def forward(self, x):
        return {"a": x * 2, "b": x * 3}


m = Heads()
m.register_backward_hook(lambda mod, gin, gout: None)
out = m(torch.ones(2, requires_grad=True))
# --8<-- [end:non-full-hook-dict]

# --8<-- [start:global-hook-mix]
import torch
from torch.nn.modules import module

module.register_module_backward_hook(lambda m, gin, gout: None)
module.register_module_full_backward_hook(lambda m, gin, gout: None)
# --8<-- [end:global-hook-mix]
