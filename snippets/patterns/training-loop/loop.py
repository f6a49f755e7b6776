"""Training-loop patterns: a frozen backbone under a trained head (linear
evaluation), and logging the loss as a number, then what goes wrong
without them."""

# --8<-- [start:setup]
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
images, target = torch.randn(16, 4), torch.randint(0, 3, (16,))
# --8<-- [end:setup]

# --8<-- [start:linear-eval]
from autograd_lens import parameters_with_grad

model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(),
                      nn.Linear(8, 3))
for name, param in model.named_parameters():
    if name not in ["3.weight", "3.bias"]:
        param.requires_grad = False  # (1)!
parameters = list(filter(lambda p: p.requires_grad, model.parameters()))
optimizer = torch.optim.SGD(parameters, lr=0.1)
model.eval()  # (2)!
loss = F.cross_entropy(model(images), target)
loss.backward()
optimizer.step()
print("params with .grad:", parameters_with_grad(model))
assert parameters_with_grad(model) == ["3.weight", "3.bias"]
assert torch.equal(model[1].running_mean, torch.zeros(8))
# --8<-- [end:linear-eval]

# --8<-- [start:linear-eval-wrong]
model.train()  # (1)!
F.cross_entropy(model(images), target).backward()
moved = not torch.equal(model[1].running_mean, torch.zeros(8))
print("frozen BatchNorm statistics moved:", moved)
assert moved
# --8<-- [end:linear-eval-wrong]

# --8<-- [start:log-loss]
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
running_loss = 0.0
for step in range(3):
    loss = F.cross_entropy(model(images), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    running_loss += loss.item()  # (1)!
print("running_loss is a", type(running_loss).__name__)
assert isinstance(running_loss, float)
# --8<-- [end:log-loss]
