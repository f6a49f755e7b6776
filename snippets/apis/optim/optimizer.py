# raises: step-before-backward RuntimeError
# raises: non-leaf ValueError
"""API inventory, torch.optim: what an optimizer does to gradients."""

# --8<-- [start:zero-grad]
import torch
from torch import nn

net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = torch.optim.SGD(net[1].parameters(), lr=0.1)  # (1)!
net(torch.ones(1, 2)).sum().backward()
opt.zero_grad()
assert net[1].weight.grad is None
assert net[0].weight.grad is not None  # (2)!
print("zero_grad(set_to_none=False):", end=" ")
net(torch.ones(1, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
print(net[1].weight.grad)
# --8<-- [end:zero-grad]

# --8<-- [start:step]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
(w ** 2).sum().backward()
version = w._version
opt.step()  # (1)!
print("w:", w.detach())
print("grad_fn:", w.grad_fn)
print("version:", version, "->", w._version)
assert w.grad_fn is None and w.is_leaf and w._version == version + 1


def closure():
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    return loss


assert opt.step(closure).item() == 0.0  # (2)!
# --8<-- [end:step]

# --8<-- [start:step-before-backward]
loss = (w * w).sum()  # (1)!
opt.step()
loss.backward()
# --8<-- [end:step-before-backward]

# --8<-- [start:param-groups]
import torch
from torch import nn

body, head = nn.Linear(2, 2), nn.Linear(2, 1)
opt = torch.optim.SGD(body.parameters(), lr=0.1)
head(body(torch.ones(1, 2))).sum().backward()
before = head.weight.detach().clone()
opt.step()
assert torch.equal(head.weight, before)  # (1)!
opt.add_param_group({"params": head.parameters(), "lr": 0.01})  # (2)!
print("groups:", len(opt.param_groups))
print("lrs:", [g["lr"] for g in opt.param_groups])
head.bias.grad = None
bias = head.bias.detach().clone()
opt.step()
assert not torch.equal(head.weight, before)
assert torch.equal(head.bias, bias)  # (3)!
# --8<-- [end:param-groups]

# --8<-- [start:state]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
assert len(opt.state) == 0  # (1)!
(w ** 2).sum().backward()
opt.step()
buf = opt.state[w]["momentum_buffer"]
print("state per parameter:", sorted(opt.state[w]))
print("buffer grad_fn:", buf.grad_fn)
assert buf.shape == w.shape and not buf.requires_grad  # (2)!
# --8<-- [end:state]

# --8<-- [start:non-leaf]
torch.optim.SGD([w.clone()], lr=0.1)
# --8<-- [end:non-leaf]

# --8<-- [start:averaged-model]
import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

net = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
ema = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.9),
                    use_buffers=False)  # (1)!
assert ema.module[0].weight is not net[0].weight
ema.update_parameters(net)
with torch.no_grad():
    net[0].weight.add_(1.0)
    net[1].running_mean.add_(1.0)
ema.update_parameters(net)  # (2)!
assert ema.module[0].weight.grad_fn is None
gap = (net[0].weight - ema.module[0].weight).detach()
print("weights: ema lags behind by", round(gap.mean().item(), 4))
assert torch.allclose(gap, torch.full((2, 2), 0.9))
copied = torch.equal(ema.module[1].running_mean, net[1].running_mean)
print("buffers copied, not averaged:", copied)  # (3)!
assert copied
# --8<-- [end:averaged-model]

# --8<-- [start:differentiable]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
lr = torch.tensor(0.1, requires_grad=True)
p = w.clone()  # (1)!
opt = torch.optim.SGD([p], lr=lr, differentiable=True)
p.grad = torch.tensor([3.0, 4.0])
opt.step()  # (2)!
p.sum().backward()
print("d(sum p)/d lr:", lr.grad)
print("d/dw:", w.grad)
assert lr.grad.item() == -7.0 and w.grad.tolist() == [1.0, 1.0]
# --8<-- [end:differentiable]
