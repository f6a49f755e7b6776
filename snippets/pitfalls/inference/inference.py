"""Detach at inference, no_grad, inference_mode: what each keeps, and the
rules."""

# --8<-- [start:saved]
import torch
from torch import nn

from autograd_lens import SavedTensorLedger

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 10))
inp = torch.randn(64, 128)


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
    print(f"{mode:15} saved tensors: {count}, activation bytes: {nbytes}")
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

# --8<-- [start:rules]
with torch.inference_mode():
    t = model(inp)
print("t.is_inference():", t.is_inference())

w = torch.ones(10, requires_grad=True)
checks = {
    "t._version": lambda: t._version,
    "in-place outside": lambda: t.add_(1),
    "used by autograd": lambda: (t * w).sum(),
    "requires_grad_()": lambda: t.requires_grad_(),
}
for name, action in checks.items():
    try:
        action()
    except RuntimeError as err:
        print(f"{name}: RuntimeError:\n    {str(err).split('.')[0]}.")
    else:
        raise AssertionError(f"{name} should raise")
v = torch.ones(10, requires_grad=True)
joined = t + v  # add saves neither input, so t may be one of them
joined.sum().backward()
print("t + v: requires_grad", joined.requires_grad, "| v.grad set:",
      v.grad is not None)
assert joined.grad_fn is not None and v.grad is not None

normal = t.clone()  # (1)!
print("clone is an inference tensor:", normal.is_inference())
assert not normal.is_inference()
(normal * w).sum().backward()
assert torch.equal(w.grad, t.sum(0))

with torch.no_grad():
    n = model(inp)
print("no_grad result is an inference tensor:", n.is_inference())
(n * w).sum().backward()  # a normal tensor: autograd may save it
assert not n.is_inference()
# --8<-- [end:rules]
