"""A forward hook that keeps an alias sees later in-place changes; keep a
copy."""

# --8<-- [start:alias]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True))  # (1)!
inp = torch.randn(2, 4)
captured = {}


def hook_fn(module, args, output):
    captured["post_c"] = output.detach().cpu()  # (2)!
    captured["copy"] = output.detach().clone()


handle = model[0].register_forward_hook(hook_fn)
with torch.no_grad():
    out = model(inp)
handle.remove()
expected = model[0](inp).detach()

print("true Linear output min:", round(expected.min().item(), 4))
print("Post C's capture min:", captured["post_c"].min().item())
print("clone() capture min:", round(captured["copy"].min().item(), 4))
assert expected.min().item() < 0
assert captured["post_c"].min().item() == 0.0
assert not torch.equal(captured["post_c"], expected)
assert torch.equal(captured["copy"], expected)
# --8<-- [end:alias]

# --8<-- [start:cpu-noop]
t = torch.randn(3)
print(".cpu() on a CPU tensor returns the same object:", t.cpu() is t)
assert t.cpu() is t
# --8<-- [end:cpu-noop]

# --8<-- [start:grad-alias]
w = torch.ones(3, requires_grad=True)
(w * 2).sum().backward()
first = w.grad  # (1)!
first_copy = w.grad.detach().clone()
(w * 2).sum().backward()  # (2)!
print("kept alias:", first, " kept copy:", first_copy)
assert first is w.grad and torch.equal(first, torch.full((3,), 4.0))
assert torch.equal(first_copy, torch.full((3,), 2.0))
# --8<-- [end:grad-alias]
