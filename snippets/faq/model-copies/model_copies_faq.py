"""FAQ: copies of models: deepcopy and non-leaf tensors, EMA updates,
teacher networks, buffers."""

# raises: deepcopy-non-leaf RuntimeError
# warns: ema-update UserWarning

# --8<-- [start:deepcopy-non-leaf]
import copy

import torch
from torch import nn


class WithCache(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.last = None

    def forward(self, x):
        out = self.lin(x)
        self.last = out  # (1)!
        return out


model = WithCache()
model(torch.randn(2, 3))
model.last = model.last.detach()  # (2)!
ema = copy.deepcopy(model)
print("deepcopy after detaching the cached tensor: ok,",
      "copies share memory:",
      ema.lin.weight.data_ptr() == model.lin.weight.data_ptr())
assert ema.lin.weight.data_ptr() != model.lin.weight.data_ptr()

model(torch.randn(2, 3))  # (3)!
copy.deepcopy(model)
# --8<-- [end:deepcopy-non-leaf]

# --8<-- [start:ema-update]
import copy

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
ema = copy.deepcopy(model).requires_grad_(False)
decay = 0.9
with torch.no_grad():
    model.weight.add_(1.0)

start = ema.weight.detach().clone()
expected = decay * start + (1 - decay) * model.weight
with torch.no_grad():  # (1)!
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p, alpha=1 - decay)  # (2)!
assert torch.allclose(ema.weight, expected)

old = start.clone()
old.mul_(decay).add_(1 - decay, model.weight.detach())  # (3)!
print("the old add_(alpha, other) form, same result:",
      torch.allclose(old, expected))
assert torch.allclose(old, expected)

ema2 = copy.deepcopy(ema)
with torch.no_grad():
    for e, p in zip(ema2.parameters(), model.parameters()):
        e.lerp_(p, 1 - decay)  # (4)!
print("mul_/add_ and lerp_ agree:", torch.allclose(ema2.weight, ema.weight
      .lerp(model.weight, 1 - decay)))

before = ema.weight
for e, p in zip(ema.parameters(), model.parameters()):
    e.data = decay * e.data + (1 - decay) * p.data  # (5)!
print("assigning .data keeps the Parameter object:", ema.weight is before)
assert ema.weight is before and not ema.weight.requires_grad
# --8<-- [end:ema-update]

# --8<-- [start:teacher-detach]
import copy

import torch
from torch import nn

torch.manual_seed(0)
student = nn.Linear(4, 3)
teacher = copy.deepcopy(student)  # (1)!
x = torch.randn(5, 4)

pseudo = teacher(x).softmax(-1)
loss = -(pseudo * student(x).log_softmax(-1)).sum(-1).mean()
loss.backward()
print("without detach, teacher.weight.grad set:",
      teacher.weight.grad is not None)  # (2)!
assert teacher.weight.grad is not None

teacher.zero_grad(set_to_none=True)
pseudo = teacher(x).softmax(-1).detach()  # (3)!
loss = -(pseudo * student(x).log_softmax(-1)).sum(-1).mean()
loss.backward()
print("with detach:", teacher.weight.grad)
assert teacher.weight.grad is None

teacher.requires_grad_(False)  # (4)!
print("a frozen teacher's output requires grad:",
      teacher(x).requires_grad)
# --8<-- [end:teacher-detach]

# --8<-- [start:ema-buffers]
import copy

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
ema = copy.deepcopy(model)
model.train()
for _ in range(5):
    model(torch.randn(16, 4) * 3 + 2)

with torch.no_grad():
    for e, p in zip(ema.parameters(), model.parameters()):  # (1)!
        e.lerp_(p, 0.5)
print("running_mean after a parameters()-only EMA:",
      ema[1].running_mean.abs().max().item())
assert torch.equal(ema[1].running_mean, torch.zeros(4))  # (2)!

with torch.no_grad():
    for e, b in zip(ema.buffers(), model.buffers()):  # (3)!
        e.copy_(b)
print("buffers:", [n for n, _ in model.named_buffers()])
assert torch.equal(ema[1].running_mean, model[1].running_mean)
# --8<-- [end:ema-buffers]
