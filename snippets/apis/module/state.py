# raises: buffer-leak RuntimeError
"""API inventory, torch.nn.Module: parameters, buffers and plain attributes."""

# --8<-- [start:parameter]
import torch
from torch import nn

h = torch.ones(2, requires_grad=True) * 2
p = nn.Parameter(h)  # (1)!
assert p.is_leaf and p.grad_fn is None and p.requires_grad
assert p.data_ptr() == h.data_ptr()
frozen = nn.Parameter(torch.ones(2), requires_grad=False)  # (2)!
print("p leaf:", p.is_leaf)
print("frozen requires_grad:", frozen.requires_grad)
# --8<-- [end:parameter]

# --8<-- [start:setattr]
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(2))  # (1)!
        self.register_buffer("count", torch.zeros(()))
        self.scale = torch.full((2,), 3.0)  # (2)!


net = Net()
print("parameters:", [n for n, _ in net.named_parameters()])
print("state_dict:", list(net.state_dict()))
assert "scale" not in net.state_dict()
net.to(torch.float64)
assert net.weight.dtype == torch.float64
assert net.scale.dtype == torch.float32  # (3)!
# --8<-- [end:setattr]

# --8<-- [start:register-buffer]
import torch
from torch import nn


class Stats(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.zeros(2))
        self.register_buffer("tmp", torch.zeros(2), persistent=False)


stats = Stats()
assert list(stats.parameters()) == []  # (1)!
print("state_dict:", list(stats.state_dict()))
assert list(stats.state_dict()) == ["mean"]  # (2)!
assert not stats.mean.requires_grad
# --8<-- [end:register-buffer]

# --8<-- [start:buffer-leak]
import torch
from torch import nn


class RunningMean(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.zeros(2))

    def forward(self, x):
        self.mean = 0.9 * self.mean + 0.1 * x.mean(0)  # (1)!
        return x - self.mean


layer = nn.Linear(2, 2)
norm = RunningMean()
norm(layer(torch.ones(4, 2))).sum().backward()
print("buffer grad_fn:", type(norm.mean.grad_fn).__name__)
assert norm.mean.requires_grad  # (2)!
norm(layer(torch.ones(4, 2))).sum().backward()  # (3)!
# --8<-- [end:buffer-leak]

# --8<-- [start:buffer-fix]
class RunningMean(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.zeros(2))

    def forward(self, x):
        with torch.no_grad():
            self.mean.mul_(0.9).add_(0.1 * x.mean(0))  # (1)!
        return x - self.mean


norm = RunningMean()
for step in range(3):
    norm(layer(torch.ones(4, 2))).sum().backward()
print("buffer grad_fn:", norm.mean.grad_fn)
assert norm.mean.grad_fn is None and not norm.mean.requires_grad
# --8<-- [end:buffer-fix]

# --8<-- [start:register-parameter]
import torch
from torch import nn

net = nn.Module()
net.register_parameter("alpha", nn.Parameter(torch.ones(1)))  # (1)!
net.register_parameter("beta", None)  # (2)!
print("parameters:", [n for n, _ in net.named_parameters()])
assert [n for n, _ in net.named_parameters()] == ["alpha"]
# --8<-- [end:register-parameter]

# --8<-- [start:parameters]
import torch
from torch import nn

net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
net[1].weight = net[0].weight  # (1)!
net[0].bias.requires_grad_(False)
names = [n for n, _ in net.named_parameters()]
print(names)
assert names == ["0.weight", "0.bias", "1.bias"]  # (2)!
everything = list(net.named_parameters(remove_duplicate=False))
assert len(everything) == 4
assert net.get_parameter("0.bias") is net[0].bias
trainable = [p for p in net.parameters() if p.requires_grad]  # (3)!
assert len(trainable) == 2
# --8<-- [end:parameters]

# --8<-- [start:buffers]
import torch
from torch import nn

bn = nn.BatchNorm1d(2)
print("buffers:", [n for n, _ in bn.named_buffers()])
assert all(not b.requires_grad for b in bn.buffers())  # (1)!
before = bn.get_buffer("running_mean").clone()
bn(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
assert not torch.equal(bn.running_mean, before)  # (2)!
assert bn.running_mean.grad_fn is None
# --8<-- [end:buffers]
