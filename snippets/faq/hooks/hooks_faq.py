"""FAQ: hooks on tensors that do not require grad, module backward hooks
and in-place operations."""

# raises: hook-on-no-grad-tensor RuntimeError
# raises: backward-hook-inplace RuntimeError

# --8<-- [start:hook-on-no-grad-tensor]
import torch
from torch import nn

model = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 2))
model[0].weight.requires_grad_(False)

handles = [p.register_hook(lambda g: g.clamp(-1, 1))
           for p in model.parameters() if p.requires_grad]  # (1)!
print("registering only where requires_grad:", len(handles))
assert len(handles) == 2

for p in model.parameters():
    p.register_hook(lambda g: g.clamp(-1, 1))  # (2)!
# --8<-- [end:hook-on-no-grad-tensor]

# Not shown: a detached output cannot take a hook either.
out = model(torch.tensor([1, 2]))
try:
    out.detach().register_hook(print)
except RuntimeError:
    pass
else:
    raise AssertionError("a detached tensor does not require grad")

# --8<-- [start:backward-hook-inplace]
import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(1, 3, 5, 5, requires_grad=True)
feats = {}


def keep_grad(module, args, out):
    out.register_hook(lambda g: feats.update(grad=g.clone()))


net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(inplace=True))
net[0].register_forward_hook(keep_grad)  # (1)!
net(x).sum().backward()
print("tensor hook on the conv output works with inplace ReLU:",
      tuple(feats["grad"].shape))
assert feats["grad"].shape == (1, 4, 3, 3)

seen = []
net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(inplace=False))
net[0].register_full_backward_hook(
    lambda m, gin, gout: seen.append(gout[0].shape))  # (2)!
net(x).sum().backward()
print("with ReLU(inplace=False), hook saw grad_output of shape",
      tuple(seen[0]))
assert tuple(seen[0]) == (1, 4, 3, 3)

net[1].inplace = True  # (3)!
net(x)
# --8<-- [end:backward-hook-inplace]
