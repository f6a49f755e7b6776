"""FAQ: activation checkpointing with frozen or non-requiring inputs,
reentrant and not."""

# --8<-- [start:checkpoint-frozen-inputs]
import warnings

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
embed = nn.Embedding(10, 4).requires_grad_(False)  # (1)!
block = nn.Sequential(nn.Linear(4, 4), nn.Tanh())  # trainable, checkpointed
head = nn.Linear(4, 1)
ids = torch.tensor([1, 2, 3])

for reentrant in (True, False):
    block.zero_grad()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
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
for reentrant in (True, False):
    x.grad = None
    out = checkpoint(under_no_grad, x, use_reentrant=reentrant)
    try:
        (out.sum() + x.sum()).backward()  # (2)!
        print(f"use_reentrant={reentrant}: out.requires_grad="
              f"{out.requires_grad}, backward ok, x.grad={x.grad.tolist()}")
        assert not reentrant and torch.equal(x.grad, torch.ones(3))
    except RuntimeError as err:
        print(f"use_reentrant={reentrant}: {err}")
        assert reentrant
        assert "none of output has requires_grad=True" in str(err)
# --8<-- [end:checkpoint-none-output]

# --8<-- [start:checkpoint-warning-no-grad]
import warnings

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

block = nn.Sequential(nn.Linear(4, 4), nn.ReLU()).eval()
x = torch.randn(2, 4)
for reentrant in (True, False):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.no_grad():
            checkpoint(block, x, use_reentrant=reentrant)  # (1)!
    texts = [str(w.message) for w in caught]
    print(f"use_reentrant={reentrant}, under no_grad:", texts)
    assert (texts == ["None of the inputs have requires_grad=True. "
                      "Gradients will be None"]) == reentrant

with torch.no_grad():
    out = block(x)  # (2)!
assert torch.equal(out, checkpoint(block, x, use_reentrant=False))
# --8<-- [end:checkpoint-warning-no-grad]
