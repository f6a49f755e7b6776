"""FAQ: gradients that do not arrive."""

# warns: tensor-from-list UserWarning

# --8<-- [start:ddp-unused]
import torch

torch.manual_seed(0)


class TwoBranch(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(2, 2), torch.nn.Linear(2, 2)

    def forward(self, x):
        return self.a(x) + self.b(x).detach()  # (1)!


net = TwoBranch()
net(torch.ones(1, 2)).sum().backward()
unused = [n for n, p in net.named_parameters() if p.grad is None]
print("parameters with no gradient:", unused)  # (2)!
assert unused == ["b.weight", "b.bias"]
# --8<-- [end:ddp-unused]

# --8<-- [start:argmax-round]
import torch

x = torch.tensor([0.2, 1.7, 0.9], requires_grad=True)
idx = x.argmax()  # (1)!
print("argmax:", idx.item(), "| requires_grad:", idx.requires_grad)
assert not idx.requires_grad and idx.grad_fn is None
x.round().sum().backward()  # (2)!
print("d round(x)/dx:", x.grad.tolist())
assert torch.equal(x.grad, torch.zeros(3))

x.grad = None
soft = torch.softmax(x / 0.1, dim=0)  # (3)!
(soft * torch.arange(3.0)).sum().backward()
print("soft version reaches x:", x.grad.abs().sum().item() > 0)
assert x.grad.abs().sum().item() > 0
# --8<-- [end:argmax-round]

# --8<-- [start:tensor-from-list]
import torch

a = torch.tensor(0.0, requires_grad=True)
parts = [a.cos(), a.sin() + 1]
kept = torch.stack(parts)  # (1)!
print("torch.stack(list): grad_fn", type(kept.grad_fn).__name__)
kept.sum().backward()
print("a.grad:", a.grad.item())
assert a.grad.item() == 1.0

lost = torch.tensor(parts)  # (2)!
print("torch.tensor(list): requires_grad", lost.requires_grad)
assert not lost.requires_grad and lost.grad_fn is None  # (3)!
# --8<-- [end:tensor-from-list]

# Not shown: tensors of more than one element do not convert at all.
w = torch.ones(2, requires_grad=True)
try:
    torch.tensor([w * 2, w * 3])
except ValueError:
    pass
else:
    raise AssertionError("only one-element tensors convert to scalars")
