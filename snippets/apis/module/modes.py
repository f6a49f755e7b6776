"""API inventory, torch.nn.Module: requires_grad_, zero_grad, to, state."""

# --8<-- [start:requires-grad]
import torch
from torch import nn

net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
net[0].requires_grad_(False)  # (1)!
assert not net[0].weight.requires_grad and net[1].weight.requires_grad
net(torch.ones(1, 2)).sum().backward()
print("first layer grad:", net[0].weight.grad)
print("second:", net[1].weight.grad is not None)
assert net[0].weight.grad is None and net[1].weight.grad is not None

from autograd_lens import SavedTensorLedger

x = torch.ones(1, 2, requires_grad=True)
with SavedTensorLedger() as frozen:
    net[0](x)  # (2)!
net[0].requires_grad_(True)
with SavedTensorLedger() as trained:
    net[0](x)
print("saved for backward:", frozen.count, "vs", trained.count)
assert frozen.count < trained.count
# --8<-- [end:requires-grad]

# --8<-- [start:zero-grad]
import torch
from torch import nn

net = nn.Linear(2, 1)
net(torch.ones(1, 2)).sum().backward()
net.zero_grad()  # (1)!
assert net.weight.grad is None
net(torch.ones(1, 2)).sum().backward()
net.zero_grad(set_to_none=False)  # (2)!
print("set_to_none=False:", net.weight.grad)
assert net.weight.grad.tolist() == [[0.0, 0.0]]
# --8<-- [end:zero-grad]

# --8<-- [start:to]
import torch
from torch import nn

net = nn.Linear(2, 1)
w = net.weight
net.to(torch.float64)  # (1)!
assert net.weight is w and w.is_leaf and w.dtype == torch.float64
moved = w.to(torch.float32)  # (2)!
print("module.to(): same leaf:", net.weight is w)
print("tensor.to(): leaf:", moved.is_leaf)
assert not moved.is_leaf
# --8<-- [end:to]

# --8<-- [start:state-dict]
import torch
from torch import nn

net = nn.Linear(2, 1)
sd = net.state_dict()
assert not sd["weight"].requires_grad  # (1)!
assert type(net.state_dict(keep_vars=True)["weight"]) is nn.Parameter
best = {k: v.clone() for k, v in sd.items()}  # (2)!
with torch.no_grad():
    net.weight.add_(1)
assert torch.equal(sd["weight"], net.weight)
assert not torch.equal(best["weight"], net.weight)
print("sd follows the weight:", torch.equal(sd["weight"], net.weight))
# --8<-- [end:state-dict]

# --8<-- [start:load-state-dict]
import torch
from torch import nn

net = nn.Linear(2, 1)
w = net.weight
net.load_state_dict({"weight": torch.zeros(1, 2), "bias": torch.zeros(1)})
assert net.weight is w and w.requires_grad  # (1)!
net.weight.requires_grad_(False)
net.load_state_dict({"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
                    strict=True, assign=True)  # (2)!
assert net.weight is not w and not net.weight.requires_grad
print("assign=True:", type(net.weight).__name__,
      net.weight.requires_grad)
# --8<-- [end:load-state-dict]

# --8<-- [start:to-empty]
import torch
from torch import nn

with torch.device("meta"):
    net = nn.Linear(2, 1)  # (1)!
net.bias.requires_grad_(False)
net.to_empty(device="cpu", recurse=True)  # (2)!
assert net.weight.device.type == "cpu" and net.weight.is_leaf
assert net.weight.requires_grad and not net.bias.requires_grad
print("after to_empty:", net.weight.device, type(net.weight).__name__)
# --8<-- [end:to-empty]
