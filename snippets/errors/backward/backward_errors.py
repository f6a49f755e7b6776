"""Errors: calling backward() or torch.autograd.grad()."""

# raises: scalar-only RuntimeError
# raises: grad-shape RuntimeError
# raises: grad-type TypeError
# raises: unused-input RuntimeError
# raises: unused-materialize ValueError
# raises: input-no-grad RuntimeError
# raises: inputs-empty-backward RuntimeError
# raises: inputs-empty-grad RuntimeError
# warns: only-inputs FutureWarning
# raises: edge-no-grad RuntimeError
# warns: anomaly-context UserWarning

# --8<-- [start:scalar-only-fix]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.sum().backward()
print("sum first:", x.grad)
assert torch.equal(x.grad, torch.full((3,), 2.0))

x.grad = None
y = x * 2
y.backward(gradient=torch.ones_like(y))
print("gradient=:", x.grad)
assert torch.equal(x.grad, torch.full((3,), 2.0))
# --8<-- [end:scalar-only-fix]

# --8<-- [start:scalar-only]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.backward()
# --8<-- [end:scalar-only]

# --8<-- [start:grad-shape-fix]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
y.backward(gradient=torch.ones_like(y))
print(y.shape, x.grad)
assert torch.equal(x.grad, 2 * x.detach())
# --8<-- [end:grad-shape-fix]

# --8<-- [start:grad-shape]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
y.backward(gradient=torch.ones(2))
# --8<-- [end:grad-shape]

# --8<-- [start:grad-type]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
y.backward(gradient=[1.0, 1.0, 1.0])
# --8<-- [end:grad-type]

# --8<-- [start:unused-input-fix]
import torch

a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
ga, gb = torch.autograd.grad(a * 3, [a, b], allow_unused=True)
print("allow_unused:", ga, gb)
assert gb is None

ga, gb = torch.autograd.grad(a * 3, [a, b], materialize_grads=True)
print("materialize_grads:", ga, gb)
assert torch.equal(gb, torch.tensor(0.0))
# --8<-- [end:unused-input-fix]

# --8<-- [start:unused-input]
import torch

a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
torch.autograd.grad(a * 3, [a, b])
# --8<-- [end:unused-input]

# --8<-- [start:unused-materialize]
import torch

a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
torch.autograd.grad(
    a * 3, [a, b], materialize_grads=True, allow_unused=False
)
# --8<-- [end:unused-materialize]

# --8<-- [start:input-no-grad-fix]
import torch

w = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(3.0, requires_grad=True)
(gw, gc) = torch.autograd.grad(w * c, [w, c])
print(gw, gc)
assert gw.item() == 3.0 and gc.item() == 2.0
# --8<-- [end:input-no-grad-fix]

# --8<-- [start:input-no-grad]
import torch

w = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(3.0)
torch.autograd.grad(w * c, [w, c])
# --8<-- [end:input-no-grad]

# --8<-- [start:inputs-empty-fix]
import torch

w = torch.tensor(2.0, requires_grad=True)
frozen = torch.tensor(3.0, requires_grad=True)
(w * frozen).backward(inputs=[w])
print("w.grad:", w.grad, "| frozen.grad:", frozen.grad)
assert w.grad.item() == 3.0 and frozen.grad is None
# --8<-- [end:inputs-empty-fix]

# --8<-- [start:inputs-empty-backward]
import torch

w = torch.tensor(2.0, requires_grad=True)
(w * 3).backward(inputs=[])
# --8<-- [end:inputs-empty-backward]


# --8<-- [start:only-inputs-fix]
import torch

x = torch.tensor(2.0, requires_grad=True)
(g,) = torch.autograd.grad(x**2, x)
print(g)
assert g.item() == 4.0
# --8<-- [end:only-inputs-fix]

# --8<-- [start:only-inputs]
import torch

x = torch.tensor(2.0, requires_grad=True)
(g,) = torch.autograd.grad(x**2, x, only_inputs=False)
print(g)
# --8<-- [end:only-inputs]

# --8<-- [start:edge-no-grad-fix]
import torch
from torch.autograd.graph import get_gradient_edge

x = torch.ones(2, requires_grad=True)
y = x * 2
edge = get_gradient_edge(y)
print(type(edge.node).__name__)
(g,) = torch.autograd.grad(y.sum(), edge)
assert torch.equal(g, torch.ones(2))
# --8<-- [end:edge-no-grad-fix]

# --8<-- [start:edge-no-grad]
import torch
from torch.autograd.graph import get_gradient_edge

y = torch.ones(2) * 2
get_gradient_edge(y)
# --8<-- [end:edge-no-grad]

# --8<-- [start:anomaly-fix]
import torch

x = torch.tensor([1.0, -1.0], requires_grad=True)
torch.autograd.set_detect_anomaly(True)
y = x.sqrt()
print(torch.is_anomaly_enabled(), y.isnan().tolist())
torch.autograd.set_detect_anomaly(False)
assert not torch.is_anomaly_enabled()
# --8<-- [end:anomaly-fix]

# --8<-- [start:anomaly-context]
import torch

with torch.autograd.detect_anomaly():
    y = torch.tensor([1.0], requires_grad=True) * 2
# --8<-- [end:anomaly-context]


# Last: before torch 2.13 this raises ValueError, not RuntimeError; the
# sections above still run on those releases.
# --8<-- [start:inputs-empty-grad]
import torch

w = torch.tensor(2.0, requires_grad=True)
torch.autograd.grad(w * 3, [])
# --8<-- [end:inputs-empty-grad]
