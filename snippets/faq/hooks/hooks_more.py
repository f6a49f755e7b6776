"""FAQ: a full backward hook on a module that ran under no_grad()."""

# --8<-- [start:backward-hook-no-grad-input]
import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(4, 2, requires_grad=True)
fc = nn.Linear(2, 1)
calls = []
fc.register_full_backward_hook(
    lambda module, grad_in, grad_out: calls.append(grad_out[0].shape)
)

with torch.no_grad():
    y = fc(x)  # (1)!
z = x.pow(2).sum(dim=-1, keepdim=True)
loss = torch.sum(y + z)
loss.backward()
print("y.requires_grad:", y.requires_grad, "| hook calls:", len(calls))
assert not y.requires_grad and calls == []  # (2)!
assert torch.equal(x.grad, 2 * x.detach())

calls.clear()
fc(x).sum().backward()  # (3)!
print("with grad enabled, hook calls:", len(calls), calls[0])
assert calls == [torch.Size([4, 1])]
# --8<-- [end:backward-hook-no-grad-input]
