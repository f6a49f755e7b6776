"""FAQ: hooks on tensors that do not require grad, module backward hooks
and in-place operations."""

# --8<-- [start:hook-on-no-grad-tensor]
import torch
from torch import nn

model = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 2))
model[0].weight.requires_grad_(False)  # a frozen, pretrained embedding

handles = []
for name, p in model.named_parameters():
    try:
        handles.append(p.register_hook(lambda g: g.clamp(-1, 1)))  # (1)!
    except RuntimeError as err:
        print(f"{name}: {err}")
        assert "doesn't require gradient" in str(err)
print("hooks registered:", len(handles))

handles = [p.register_hook(lambda g: g.clamp(-1, 1))
           for p in model.parameters() if p.requires_grad]  # (2)!
print("registering only where requires_grad:", len(handles))
assert len(handles) == 2

out = model(torch.tensor([1, 2]))
try:
    out.detach().register_hook(print)  # (3)!
except RuntimeError as err:
    print("a detached output:", err)
    assert "doesn't require gradient" in str(err)
# --8<-- [end:hook-on-no-grad-tensor]

# --8<-- [start:backward-hook-inplace]
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(inplace=True))
seen = []
net[0].register_full_backward_hook(
    lambda m, gin, gout: seen.append(gout[0].shape))  # (1)!
x = torch.randn(1, 3, 5, 5, requires_grad=True)
try:
    net(x)  # (2)!
except RuntimeError as err:
    print(str(err).split(" and the autograd")[0])
    assert "BackwardHookFunction is a view and is being modified inplace" \
        in str(err)

net[1].inplace = False  # (3)!
net(x).sum().backward()
print("with ReLU(inplace=False), hook saw grad_output of shape",
      tuple(seen[0]))

feats = {}


def keep_grad(module, args, out):
    out.register_hook(lambda g: feats.update(grad=g.clone()))


net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(inplace=True))
net[0].register_forward_hook(keep_grad)  # (4)!
net(x).sum().backward()
print("tensor hook on the conv output works with inplace ReLU:",
      tuple(feats["grad"].shape))
assert feats["grad"].shape == (1, 4, 3, 3)
# --8<-- [end:backward-hook-inplace]
