"""FAQ: requires_grad, leaves and the errors around them."""

# raises: element-0-no-grad-fn RuntimeError
# warns: nonleaf-grad-warning UserWarning
# raises: leaf-definition RuntimeError

# --8<-- [start:element-0-no-grad-fn]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * 3).sum().backward()  # (1)!
print("kept in the graph: w.grad =", w.grad)
assert torch.equal(w.grad, torch.tensor([3.0, 3.0]))

cut = w.detach() * 3  # (2)!
cut.sum().backward()
# --8<-- [end:element-0-no-grad-fn]

# Not shown: a loss re-wrapped from .item() is cut off the same way.
try:
    torch.tensor(w.sum().item()).backward()
except RuntimeError:
    pass
else:
    raise AssertionError("a loss outside the graph cannot backward")

# --8<-- [start:loss-requires-grad-hack]
import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
pred = model(torch.ones(4, 2)).detach()  # (1)!
loss = ((pred - 1) ** 2).mean()
loss.requires_grad = True  # (2)!
loss.backward()
print("loss is a leaf:", loss.is_leaf)
print("model.weight.grad:", model.weight.grad)
assert loss.is_leaf and model.weight.grad is None

loss = ((model(torch.ones(4, 2)) - 1) ** 2).mean()  # (3)!
loss.backward()
print("without the detach:", model.weight.grad is not None)
assert model.weight.grad is not None
# --8<-- [end:loss-requires-grad-hack]

# --8<-- [start:nonleaf-grad-warning]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2  # (1)!
loss = (h ** 2).sum()
h.retain_grad()  # (2)!
loss.backward()
print("w.grad:", w.grad, "| h.grad:", h.grad)
assert torch.equal(h.grad, 2 * h.detach())

h2 = w * 2
seen = h2.grad  # (3)!
print("h2.grad without retain_grad():", seen)
assert seen is None
# --8<-- [end:nonleaf-grad-warning]

# --8<-- [start:leaf-definition]
import torch

x = torch.tensor([1.0], requires_grad=True)
y = x * 2  # (1)!
z = torch.tensor([1.0]) * 2
z.requires_grad = True  # (2)!
for name, t in [("x", x), ("y = x * 2", y), ("z, flag set later", z)]:
    print(f"{name}: is_leaf={t.is_leaf}, grad_fn="
          f"{type(t.grad_fn).__name__ if t.grad_fn else None}")
assert x.is_leaf and not y.is_leaf and z.is_leaf
y.requires_grad = False  # (3)!
# --8<-- [end:leaf-definition]

# --8<-- [start:freeze-requires-grad-vs-no-grad]
import torch

torch.manual_seed(0)
backbone, head = torch.nn.Linear(3, 3), torch.nn.Linear(3, 1)
backbone.requires_grad_(False)  # (1)!
with torch.no_grad():
    print("inside no_grad(), head.weight.requires_grad:",
          head.weight.requires_grad)  # (2)!
    assert head.weight.requires_grad
head(backbone(torch.ones(2, 3))).sum().backward()
print("backbone.weight.grad:", backbone.weight.grad)
print("head.weight.grad is set:", head.weight.grad is not None)
assert backbone.weight.grad is None and head.weight.grad is not None
trainable = [p for p in [*backbone.parameters(), *head.parameters()]
             if p.requires_grad]
opt = torch.optim.SGD(trainable, lr=0.1)  # (3)!
print("parameters given to the optimizer:", len(trainable))
assert len(trainable) == 2


def frozen_moves(set_to_none: bool, **opt_args) -> bool:
    """Train a layer one step, freeze it, step again: did it move?"""
    torch.manual_seed(0)
    layer = torch.nn.Linear(3, 3)
    opt = torch.optim.SGD(layer.parameters(), lr=0.1, **opt_args)
    layer(torch.ones(2, 3)).sum().backward()
    opt.step()
    layer.requires_grad_(False)
    opt.zero_grad(set_to_none=set_to_none)  # (4)!
    before = layer.weight.clone()
    opt.step()
    return not torch.equal(layer.weight, before)


for args in ({"momentum": 0.9}, {"weight_decay": 0.01}):
    none, zero = frozen_moves(True, **args), frozen_moves(False, **args)
    name = next(iter(args))
    print(f"{name} moves it: .grad None {none}, zero {zero}")
    assert not none and zero  # (5)!
# --8<-- [end:freeze-requires-grad-vs-no-grad]
