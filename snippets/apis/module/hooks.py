# warns: old-backward-hook FutureWarning
"""API inventory, torch.nn.Module: forward and backward hooks."""

# --8<-- [start:forward-hook]
import torch
from torch import nn

net = nn.Linear(2, 2)
kept = []


def keep(module, args, output):
    kept.append(output)  # (1)!


def double(module, args, output):
    return output * 2  # (2)!


net.register_forward_hook(keep)
net.register_forward_hook(double, prepend=True)
out = net(torch.ones(1, 2))
assert kept[0].grad_fn is not None and torch.equal(kept[0], out)
print("kept output grad_fn:", type(kept[0].grad_fn).__name__)
# --8<-- [end:forward-hook]

# --8<-- [start:forward-pre-hook]
import torch
from torch import nn

net = nn.Linear(2, 1)


def detach_input(module, args):
    return (args[0].detach(),)  # (1)!


net.register_forward_pre_hook(detach_input)
x = torch.ones(1, 2, requires_grad=True)
net(x).sum().backward()
print("x.grad:", x.grad)
print("weight.grad set:", net.weight.grad is not None)
assert x.grad is None and net.weight.grad is not None
# --8<-- [end:forward-pre-hook]

# --8<-- [start:full-backward-hook]
import torch
from torch import nn

net = nn.Linear(2, 1)


def scale_input_grad(module, grad_input, grad_output):
    return (torch.zeros_like(grad_input[0]),)  # (1)!


net.register_full_backward_hook(scale_input_grad)
x = torch.ones(1, 2, requires_grad=True)
net(x).sum().backward()
print("x.grad:", x.grad)
print("weight.grad:", net.weight.grad)
assert x.grad.tolist() == [[0.0, 0.0]]
assert net.weight.grad.tolist() == [[1.0, 1.0]]  # (2)!
# --8<-- [end:full-backward-hook]

# --8<-- [start:full-backward-pre-hook]
import torch
from torch import nn

net = nn.Linear(2, 1)


def clip_output_grad(module, grad_output):
    return (grad_output[0].clamp(max=0.5),)  # (1)!


net.register_full_backward_pre_hook(clip_output_grad)
x = torch.ones(1, 2, requires_grad=True)
net(x).sum().backward()
print("weight.grad:", net.weight.grad)
assert net.weight.grad.tolist() == [[0.5, 0.5]]
# --8<-- [end:full-backward-pre-hook]

# --8<-- [start:old-backward-hook]
import torch
from torch import nn


class Twice(nn.Module):
    def forward(self, x):
        return (x * 2).sum(-1)


seen = []
net = Twice()
net.register_backward_hook(
    lambda module, grad_input, grad_output: seen.append(len(grad_input)))
net(torch.ones(3, 2, requires_grad=True)).sum().backward()  # (1)!
assert seen == [1]
print("grad_input entries seen:", seen[0])
# --8<-- [end:old-backward-hook]
