"""torch.compile and detach(): graph breaks, and gradients against eager."""
# timeout: 300

# --8<-- [start:explain]
from pprint import pprint

import torch
import torch._dynamo as dynamo


def loss_fn(x, w):
    h = (x @ w).tanh()
    target = h.detach() * 0.5  # (1)!
    return ((h - target) ** 2).mean()


torch.manual_seed(0)
x = torch.randn(8, 4)
w = torch.randn(4, 3, requires_grad=True)

dynamo.reset()
report = dynamo.explain(loss_fn)(x, w)  # (2)!
print("graphs:", report.graph_count, " graph breaks:",
      report.graph_break_count)
assert report.graph_count == 1 and report.graph_break_count == 0
# --8<-- [end:explain]

# --8<-- [start:captured]
captured = []


def record_backend(gm, example_inputs):
    """A backend that only looks at the graph and then runs it as is."""
    captured.append(gm)
    return gm.forward


dynamo.reset()
torch.compile(loss_fn, backend=record_backend)(x, w)
ops = [
    str(n.target)
    for n in captured[0].graph.nodes
    if n.op in ("call_function", "call_method")
]
pprint(ops, width=78)  # (1)!
assert "detach" in ops
# --8<-- [end:captured]

# --8<-- [start:grads]
results = {}
for backend in ("eager", "aot_eager"):  # (1)!
    dynamo.reset()
    compiled = torch.compile(loss_fn, backend=backend)
    (g,) = torch.autograd.grad(compiled(x, w), w)
    results[backend] = g
(g_eager,) = torch.autograd.grad(loss_fn(x, w), w)
for backend, g in results.items():
    print(f"{backend:9} gradient equals eager: {torch.allclose(g, g_eager)}")
    assert torch.allclose(g, g_eager)
# --8<-- [end:grads]

# --8<-- [start:print-break]
def loss_with_print(x, w):
    h = (x @ w).tanh()
    print("inside")  # (1)!
    return (h - h.detach() * 0.5).pow(2).mean()


dynamo.reset()
report = dynamo.explain(loss_with_print)(x, w)
print("graphs:", report.graph_count, " graph breaks:",
      report.graph_break_count)
assert report.graph_break_count == 1
dynamo.reset()
# --8<-- [end:print-break]
