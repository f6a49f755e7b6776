"""FAQ: activation checkpointing with frozen or non-requiring inputs,
reentrant and not."""

# warns: checkpoint-frozen-inputs UserWarning
# raises: checkpoint-none-output RuntimeError
# warns: checkpoint-warning-no-grad UserWarning

# --8<-- [start:checkpoint-frozen-inputs]
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
embed = nn.Embedding(10, 4).requires_grad_(False)  # (1)!
block = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
head = nn.Linear(4, 1)
ids = torch.tensor([1, 2, 3])

for reentrant in (True, False):
    block.zero_grad()
    h = checkpoint(block, embed(ids), use_reentrant=reentrant)  # (2)!
    head(h).sum().backward()
    got = block[0].weight.grad is not None
    print(f"use_reentrant={reentrant}: h.requires_grad={h.requires_grad},",
          f"block gets a gradient: {got}")
    assert got == (not reentrant)

hook = embed.register_forward_hook(
    lambda module, args, out: out.requires_grad_(True))  # (3)!
block.zero_grad()
h = checkpoint(block, embed(ids), use_reentrant=True)
head(h).sum().backward()
print("reentrant, embedding output made to require grad:",
      block[0].weight.grad is not None)
assert block[0].weight.grad is not None and embed.weight.grad is None
hook.remove()
# --8<-- [end:checkpoint-frozen-inputs]

# --8<-- [start:checkpoint-none-output]
import torch
from torch.utils.checkpoint import checkpoint


def under_no_grad(x):
    with torch.no_grad():  # (1)!
        return x * 2


x = torch.randn(3, requires_grad=True)
out = checkpoint(under_no_grad, x, use_reentrant=False)  # (2)!
(out.sum() + x.sum()).backward()
print("use_reentrant=False: out.requires_grad:", out.requires_grad)
print("backward ok, x.grad:", x.grad.tolist())
assert torch.equal(x.grad, torch.ones(3))

out = checkpoint(under_no_grad, x, use_reentrant=True)  # (3)!
(out.sum() + x.sum()).backward()
# --8<-- [end:checkpoint-none-output]

# --8<-- [start:checkpoint-warning-no-grad]
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

block = nn.Sequential(nn.Linear(4, 4), nn.ReLU()).eval()
x = torch.randn(2, 4)
with torch.no_grad():
    out = block(x)
    quiet = checkpoint(block, x, use_reentrant=False)  # (1)!
    print("use_reentrant=False: same as block(x):", torch.equal(out, quiet))
    assert torch.equal(out, quiet)
    checkpoint(block, x, use_reentrant=True)  # (2)!
# --8<-- [end:checkpoint-warning-no-grad]

# Not shown: the non-reentrant checkpoint under no_grad does not warn (a
# warning outside a '# warns:' section fails the run).
with torch.no_grad():
    checkpoint(block, x, use_reentrant=False)
