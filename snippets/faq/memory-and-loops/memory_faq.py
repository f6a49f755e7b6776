"""FAQ: memory that grows in a loop, and the second backward."""

# raises: backward-twice RuntimeError
# raises: rnn-hidden-detach RuntimeError

# --8<-- [start:validation-oom]
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh())
model.eval()
batch = torch.randn(4, 8)
out = model(batch)  # (1)!
print("eval() only: output keeps a graph:", out.grad_fn is not None)
with torch.no_grad():  # (2)!
    out = model(batch)
print("eval() + no_grad(): graph:", out.grad_fn is not None)
assert out.grad_fn is None
# --8<-- [end:validation-oom]

# --8<-- [start:accumulate-loss]
import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
total = 0.0
for _ in range(3):
    loss = model(torch.randn(2, 4)).pow(2).mean()
    total += loss  # (1)!
print("total += loss:", type(total).__name__,
      "| grad_fn:", type(total.grad_fn).__name__)
assert total.grad_fn is not None

seen, todo = set(), [total.grad_fn]
while todo:  # (2)!
    node = todo.pop()
    if node is not None and node not in seen:
        seen.add(node)
        todo.extend(f for f, _ in node.next_functions)
means = sum(type(n).__name__ == "MeanBackward0" for n in seen)
print("loss graphs still reachable from total:", means)
assert means == 3

total = 0.0
for _ in range(3):
    loss = model(torch.randn(2, 4)).pow(2).mean()
    total += loss.item()  # (3)!
print("total += loss.item():", type(total).__name__)
assert isinstance(total, float)
# --8<-- [end:accumulate-loss]

# --8<-- [start:backward-twice]
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w.exp() * w).sum()
loss.backward(retain_graph=True)  # (1)!
loss.backward()
print("retain_graph=True, two backward: w.grad =", w.grad)
assert torch.allclose(w.grad, 2 * (w.exp() * (1 + w)).detach())

loss = (w.exp() * w).sum()
loss.backward()  # (2)!
loss.backward()
# --8<-- [end:backward-twice]

# --8<-- [start:rnn-hidden-detach]
import torch

torch.manual_seed(0)
cell = torch.nn.RNNCell(3, 4)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
h = torch.zeros(1, 4)
for step in range(3):
    x = torch.randn(1, 3)
    h = cell(x, h.detach())  # (1)!
    loss = h.pow(2).sum()
    opt.zero_grad()
    loss.backward()  # (2)!
    opt.step()
print("three chunks trained; h.grad_fn:", type(h.grad_fn).__name__)
assert all(p.grad is not None for p in cell.parameters())

h = torch.zeros(1, 4)
for step in range(3):
    h = cell(torch.randn(1, 3), h)  # (3)!
    opt.zero_grad()
    h.pow(2).sum().backward(retain_graph=True)  # (4)!
    opt.step()
# --8<-- [end:rnn-hidden-detach]

# Not shown: without the detach and without retain_graph, the second chunk's
# backward reaches the first chunk's freed graph.
h = torch.zeros(1, 4)
h = cell(torch.randn(1, 3), h)
h.pow(2).sum().backward()
h = cell(torch.randn(1, 3), h)
try:
    h.pow(2).sum().backward()
except RuntimeError:
    pass
else:
    raise AssertionError("the first chunk's graph was freed")

# --8<-- [start:item-vs-detach]
import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
loss = model(torch.randn(2, 4)).pow(2).mean()
as_tensor = loss.detach()  # (1)!
as_float = loss.item()  # (2)!
print("detach():", type(as_tensor).__name__, "grad_fn", as_tensor.grad_fn,
      "| item():", type(as_float).__name__)
assert as_tensor.grad_fn is None and isinstance(as_float, float)
history = [loss.detach() for _ in range(3)]  # (3)!
mean = torch.stack(history).mean().item()
print(f"mean of the kept losses: {mean:.4f}")
# --8<-- [end:item-vs-detach]
