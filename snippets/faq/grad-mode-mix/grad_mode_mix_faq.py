"""FAQ: grad modes meeting each other (inference tensors, enable_grad,
autocast with no_grad)."""

# raises: inference-tensor-inplace RuntimeError

# --8<-- [start:inference-tensor-inplace]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
loss_fn = nn.MSELoss()
batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(2)]

test_loss = 0.0
with torch.inference_mode():
    for x, y in batches:
        test_loss += loss_fn(model(x), y).item()  # (1)!
test_loss /= len(batches)
print("with .item(): a float,", type(test_loss).__name__)
assert isinstance(test_loss, float)

test_loss = 0
with torch.inference_mode():
    for x, y in batches:
        test_loss += loss_fn(model(x), y)  # (2)!
print("test_loss is an inference tensor:", test_loss.is_inference())
assert test_loss.is_inference()
test_loss /= len(batches)  # (3)!
# --8<-- [end:inference-tensor-inplace]

# --8<-- [start:enable-grad-outside-no-grad]
import torch

x = torch.ones(2, requires_grad=True)
torch.set_grad_enabled(False)
with torch.enable_grad():  # (1)!
    y = x * 2
print("enable_grad without an outer no_grad:", y.requires_grad)
assert y.requires_grad and not torch.is_grad_enabled()
torch.set_grad_enabled(True)


@torch.no_grad()
def scale(t):
    return t * 2


with torch.no_grad():
    scale(x)  # (2)!
    still_off = not torch.is_grad_enabled()
print("no_grad still on after a decorated call:", still_off)
assert still_off


@torch.enable_grad()
def step(t):
    return t * 2


with torch.no_grad():
    print("enable_grad decorator inside no_grad:", step(x).requires_grad)
    assert step(x).requires_grad  # (3)!

with torch.inference_mode(), torch.enable_grad():
    z = x * 2  # (4)!
print("enable_grad inside inference_mode:", z.requires_grad)
assert not z.requires_grad
# --8<-- [end:enable-grad-outside-no-grad]

# --8<-- [start:functional-api-no-grad]
import torch
from torch.autograd.functional import jacobian, vjp

x = torch.tensor([1.0, 3.0])
with torch.no_grad():  # (1)!
    jac = jacobian(lambda t: t**2, x)
    _, v = vjp(lambda t: t.exp().sum(), x)
print("under no_grad: jacobian diag", jac.diag().tolist(),
      "| vjp", [round(e, 4) for e in v.tolist()])
assert torch.equal(jac.diag(), 2 * x) and torch.allclose(v, x.exp())

with torch.inference_mode():
    jac = jacobian(lambda t: t**2, x)  # (2)!
print("under inference_mode:", jac.tolist())
assert torch.equal(jac, torch.zeros(2, 2))
# --8<-- [end:functional-api-no-grad]

# --8<-- [start:autocast-no-grad-cache]
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 4), nn.LayerNorm(4), nn.Linear(4, 1))
x = torch.randn(2, 4)
with torch.autocast("cpu", dtype=torch.bfloat16):  # (1)!
    with torch.no_grad():
        net(x)
    out = net(x)  # (2)!
out.float().sum().backward()
missing = [n for n, p in net.named_parameters() if p.grad is None]
print("output dtype:", out.dtype, "| parameters without .grad:", missing)
assert out.dtype == torch.bfloat16 and missing == []
# --8<-- [end:autocast-no-grad-cache]
