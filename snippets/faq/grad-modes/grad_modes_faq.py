"""FAQ: no_grad(), inference_mode(), eval() and detach()."""

# raises: inference-mode-vs-no-grad RuntimeError
# raises: inference-tensors-backward RuntimeError

# --8<-- [start:no-grad-vs-detach]
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
h = w.exp()  # (1)!
after = h.detach() * 2  # (2)!
with torch.no_grad():
    inside = w.exp() * 2  # (3)!
print("h.grad_fn:", type(h.grad_fn).__name__)
print("detach() afterwards:", after.requires_grad,
      "| no_grad():", inside.requires_grad)
assert h.grad_fn is not None
assert not after.requires_grad and not inside.requires_grad
assert torch.equal(after, inside)

mixed = w * 2 + h.detach()  # (4)!
mixed.sum().backward()
print("gradient through the attached term only:", w.grad)
assert torch.equal(w.grad, torch.full((3,), 2.0))
# --8<-- [end:no-grad-vs-detach]

# --8<-- [start:inference-mode-vs-no-grad]
import torch

x = torch.ones(3)
with torch.no_grad():
    a = x * 2
with torch.inference_mode():
    b = x * 2
print("no_grad result:        inference tensor?", a.is_inference())
print("inference_mode result: inference tensor?", b.is_inference())
assert not a.is_inference() and b.is_inference()
assert not a.requires_grad and not b.requires_grad
print("version counter of a:", a._version)  # (1)!
print("version counter of b:", b._version)
# --8<-- [end:inference-mode-vs-no-grad]

# --8<-- [start:inference-tensors-backward]
import torch

lin = torch.nn.Linear(2, 1)
with torch.inference_mode():
    feats = torch.ones(4, 2) * 3  # (1)!
lin(feats.clone()).sum().backward()  # (2)!
print("with clone(): weight.grad =", lin.weight.grad)
assert torch.equal(lin.weight.grad, torch.full((1, 2), 12.0))

lin(feats).sum().backward()  # (3)!
# --8<-- [end:inference-tensors-backward]

# --8<-- [start:eval-vs-no-grad]
import torch

torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))
net.eval()  # (1)!
out = net(torch.ones(2, 4))
print("after eval(): requires_grad", out.requires_grad,
      "| grad_fn", type(out.grad_fn).__name__)
assert out.requires_grad
with torch.no_grad():  # (2)!
    out2 = net(torch.ones(2, 4))
print("eval() + no_grad(): requires_grad", out2.requires_grad)
assert not out2.requires_grad and torch.equal(out, out2)
net.train()
print("train() drops units:", bool((net(torch.ones(2, 4)) == 0).any()))
# --8<-- [end:eval-vs-no-grad]
