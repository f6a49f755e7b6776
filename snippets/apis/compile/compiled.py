# stderr: torch.compile logs the graph break that .item() causes, with the
# path of this file
# timeout: 300
"""API inventory, torch.compile: gradients, grad modes and graph breaks."""

# --8<-- [start:compile]
import torch


def loss_fn(x, w):
    h = (x @ w).tanh()
    return (h - h.detach() * 0.5).pow(2).mean()  # (1)!


x = torch.ones(4, 3)
w = torch.full((3, 2), 0.1, requires_grad=True)
compiled = torch.compile(loss_fn, backend="aot_eager")  # (2)!
compiled(x, w).backward()
from_compiled, w.grad = w.grad, None
loss_fn(x, w).backward()
assert torch.allclose(from_compiled, w.grad)
with torch.no_grad():
    out = compiled(x, w)  # (3)!
print("same gradient:", torch.allclose(from_compiled, w.grad))
print("under no_grad:", out.grad_fn)
assert out.grad_fn is None
# --8<-- [end:compile]

# --8<-- [start:capture-scalar]
import torch
import torch._dynamo


def scale_by_sum(x):
    return x * x.sum().item()  # (1)!


torch._dynamo.reset()
report = torch._dynamo.explain(scale_by_sum)(torch.ones(2))
print("graph breaks by default:", report.graph_break_count)
assert report.graph_break_count == 1
torch._dynamo.config.capture_scalar_outputs = True  # (2)!
torch._dynamo.reset()
report = torch._dynamo.explain(scale_by_sum)(torch.ones(2))
print("with capture_scalar_outputs:", report.graph_break_count)
assert report.graph_break_count == 0
torch._dynamo.config.capture_scalar_outputs = False
# --8<-- [end:capture-scalar]

# --8<-- [start:disable]
import torch


@torch.compiler.disable  # (1)!
def eager_part(x):
    return x.sin()


def model(x):
    return eager_part(x * 2).sum()


x = torch.zeros(2, requires_grad=True)
torch.compile(model, backend="aot_eager")(x).backward()
print("x.grad:", x.grad)
assert x.grad.tolist() == [2.0, 2.0]  # (2)!
# --8<-- [end:disable]
