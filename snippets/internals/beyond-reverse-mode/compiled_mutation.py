# raises: mutation-eager RuntimeError
# raises: mutation-aot RuntimeError
# stderr: AOTAutograd warns 'Error detected in ...' with the forward traceback
"""Under torch.compile: x.data = y is captured and keeps its eager meaning;
an in-place write through detach() into a saved tensor is caught by the
aot_eager backend when the compiled function is called, not at backward."""

import warnings

# --8<-- [start:set-data]
import torch


def swap(x, y):
    x.data = y.data  # (1)!
    return x * 2


graphs = []


def record(gm, example_inputs):
    """A backend that keeps the names of each graph's calls."""
    calls = [n.target for n in gm.graph.nodes if n.op == "call_function"]
    graphs.append([getattr(t, "__name__", str(t)) for t in calls])
    return gm.forward


x = torch.ones(3, requires_grad=True)
compiled = torch.compile(swap, backend=record, fullgraph=True)  # (2)!
out = compiled(x, torch.full((3,), 5.0))
print("captured:", ", ".join(graphs[0]))
print("x:", x)
assert len(graphs) == 1
assert torch.equal(x.detach(), torch.full((3,), 5.0))
assert x.requires_grad and x.is_leaf and x._version == 0  # (3)!
out.sum().backward()
assert torch.equal(x.grad, torch.full((3,), 2.0))
# --8<-- [end:set-data]

# --8<-- [start:mutation-eager]
def write_through_detach(x):
    y = x.exp()
    y.detach().mul_(2)
    return y.sum()


x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
eager = torch.compile(write_through_detach, backend="eager")
loss = eager(x)  # (1)!
print("backend='eager': the compiled call returns", loss.detach())
loss.backward()  # (2)!
# --8<-- [end:mutation-eager]

# AOTAutograd runs the traced backward in anomaly mode, which also warns
# with the forward call's traceback (this machine's paths); the page shows
# the error, so the warning is left out here.
warnings.filterwarnings("ignore", message="Error detected in")

# --8<-- [start:mutation-aot]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
aot = torch.compile(write_through_detach, backend="aot_eager")
loss = aot(x)  # (1)!
# --8<-- [end:mutation-aot]
