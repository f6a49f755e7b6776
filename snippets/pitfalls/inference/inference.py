# raises: no-grad-view RuntimeError
# raises: rules RuntimeError
# raises: rules-inplace RuntimeError
# raises: rules-saved RuntimeError
# raises: rules-requires-grad RuntimeError
"""Detach at inference, no_grad, inference_mode: what each keeps, and the
rules."""

# --8<-- [start:habit]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 10))
inp = torch.randn(64, 128)

model.eval()
with torch.inference_mode():  # (1)!
    out = model(inp)
print("out.grad_fn:", out.grad_fn, "| requires_grad:", out.requires_grad)
assert out.grad_fn is None and not out.requires_grad
# --8<-- [end:habit]

# --8<-- [start:saved]
from autograd_lens import SavedTensorLedger


def saved_bytes(mode):
    with SavedTensorLedger() as ledger:
        if mode == "detach":
            out = model(inp).detach()  # (1)!
        elif mode == "no_grad":
            with torch.no_grad():
                out = model(inp)
        else:
            with torch.inference_mode():
                out = model(inp)
    return ledger.count, ledger.activation_nbytes, out


results = {m: saved_bytes(m) for m in ("detach", "no_grad", "inference_mode")}
for mode, (count, nbytes, out) in results.items():
    print(f"{mode}: {count} saved tensors, {nbytes} B")
assert results["detach"][1] > 0
assert results["no_grad"][0] == results["inference_mode"][0] == 0
assert all(torch.equal(results["detach"][2], r[2]) for r in results.values())
# --8<-- [end:saved]

# --8<-- [start:redundant]
with torch.no_grad():
    output = model(inp)
print("inside no_grad: output.requires_grad =", output.requires_grad)
print("output.detach() shares storage:",
      output.detach().data_ptr() == output.data_ptr())
assert not output.requires_grad
# --8<-- [end:redundant]

# --8<-- [start:no-grad-view]
table = nn.Parameter(torch.ones(4, 3))
with torch.no_grad():
    row = table[0]  # (1)!
    row_detached = table[0].detach()  # (2)!
print("row.requires_grad:", row.requires_grad,
      "| row_detached.requires_grad:", row_detached.requires_grad)
assert row.requires_grad and row._base is table
assert not row_detached.requires_grad
row_detached.mul_(2)  # (3)!
assert table[0, 0].item() == 2.0
row.mul_(2)  # (4)!
# --8<-- [end:no-grad-view]

# --8<-- [start:rules]
with torch.inference_mode():
    t = model(inp)
print("t.is_inference():", t.is_inference())
assert t.is_inference()
print(t._version)  # (1)!
# --8<-- [end:rules]

# --8<-- [start:rules-inplace]
t.add_(1)
# --8<-- [end:rules-inplace]

# --8<-- [start:rules-saved]
w = torch.ones(10, requires_grad=True)
(t * w).sum()  # (1)!
# --8<-- [end:rules-saved]

# --8<-- [start:rules-requires-grad]
t.requires_grad_()
# --8<-- [end:rules-requires-grad]

# --8<-- [start:rules-allowed]
v = torch.ones(10, requires_grad=True)
joined = t + v  # (1)!
joined.sum().backward()
print("t + v: requires_grad", joined.requires_grad, "| v.grad set:",
      v.grad is not None)
assert joined.grad_fn is not None and v.grad is not None

normal = t.clone()  # (2)!
print("clone is an inference tensor:", normal.is_inference())
assert not normal.is_inference()
(normal * w).sum().backward()
assert torch.equal(w.grad, t.sum(0))

with torch.no_grad():
    n = model(inp)
print("no_grad result is an inference tensor:", n.is_inference())
(n * w).sum().backward()
assert not n.is_inference()
# --8<-- [end:rules-allowed]
