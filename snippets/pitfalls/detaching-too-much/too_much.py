# raises: seed-002 RuntimeError
"""Detaching too early: gradients that silently stop, and how to find them."""

# --8<-- [start:segments]
import torch
from torch import nn

from autograd_lens import parameters_with_grad, reached_parameters

torch.manual_seed(0)
model = nn.ModuleDict(
    {"segment": nn.Linear(4, 4), "aggregate": nn.Linear(4, 1)}
)
sequence = torch.randn(3, 2, 4)

hidden = []
for seg in sequence:
    h = model["segment"](seg)
    hidden.append(h.detach())  # (1)!
loss = model["aggregate"](torch.stack(hidden)).sum()

print("reached before backward:", reached_parameters(loss, model))  # (2)!
loss.backward()
print("got a gradient:         ", parameters_with_grad(model))
assert reached_parameters(loss, model) == ["aggregate.weight",
                                           "aggregate.bias"]
assert model["segment"].weight.grad is None
# --8<-- [end:segments]

# --8<-- [start:fixed]
model.zero_grad(set_to_none=True)
hidden = [model["segment"](seg) for seg in sequence]  # (1)!
loss = model["aggregate"](torch.stack(hidden)).sum()
print("reached:", reached_parameters(loss, model))
assert len(reached_parameters(loss, model)) == 4
# --8<-- [end:fixed]

# --8<-- [start:seed-002]
import torch.nn.functional as F

net = nn.Linear(4, 3)
data, target = torch.randn(2, 4), torch.tensor([0, 2])
output = net(data)
loss = F.cross_entropy(output.detach(), target)  # (1)!
print(
    "reached:",
    reached_parameters(loss, net),
    " loss.requires_grad:",
    loss.requires_grad,
)
assert reached_parameters(loss, net) == []
loss.backward()
# --8<-- [end:seed-002]

# --8<-- [start:seed-002-sum]
assert net.weight.grad is None  # (1)!
x = torch.randn(10, requires_grad=True)
y = x.detach() * 2
z = y.sum()
print("z.requires_grad:", z.requires_grad)
assert not z.requires_grad
# --8<-- [end:seed-002-sum]

# --8<-- [start:habit]
blocks = nn.ModuleDict({
    "cut": nn.Linear(4, 4),
    "head": nn.Linear(4, 1),
    "unused": nn.Linear(4, 1),
})
ran = []
for name, block in blocks.items():
    block.register_forward_hook(
        lambda module, args, out, name=name: ran.append(name)  # (1)!
    )
x = torch.randn(2, 4)
loss = blocks["head"](blocks["cut"](x).detach()).sum()
loss.backward()
no_grad = [n for n, p in blocks.named_parameters() if p.grad is None]
blocked = [n for n in no_grad if n.split(".")[0] in ran]  # (2)!
print("ran in forward:", ran)
print("grad is None:", no_grad[:2])
print("             ", no_grad[2:])
print("blocked:", blocked)
assert no_grad == ["cut.weight", "cut.bias", "unused.weight", "unused.bias"]
assert ran == ["cut", "head"] and blocked == ["cut.weight", "cut.bias"]
# --8<-- [end:habit]
