"""Under torch.compile: x.data = y is captured and keeps its eager meaning;
an in-place write through detach() into a saved tensor is caught by the
aot_eager backend when the compiled function is called, not at backward."""

# --8<-- [start:set-data]
import textwrap
import warnings

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
print(textwrap.fill("captured: " + ", ".join(graphs[0]), 78))
print("x:", x)
assert len(graphs) == 1  # one graph: no break
assert torch.equal(x.detach(), torch.full((3,), 5.0))
assert x.requires_grad and x.is_leaf and x._version == 0  # (3)!
out.sum().backward()
assert torch.equal(x.grad, torch.full((3,), 2.0))
# --8<-- [end:set-data]

# --8<-- [start:mutation]
def write_through_detach(x):
    y = x.exp()  # saves y for backward
    y.detach().mul_(2)
    return y.sum()


def where_it_fails(backend):
    x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    compiled = torch.compile(write_through_detach, backend=backend)
    try:
        loss = compiled(x)
    except RuntimeError as err:  # (1)!
        inner = err.__cause__ or err
        assert "modified by an inplace" in str(inner)
        return "the compiled call"
    try:
        loss.backward()
    except RuntimeError:
        return "backward()"
    return "nowhere"


with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # anomaly-mode traceback warning
    places = {b: where_it_fails(b) for b in ("eager", "aot_eager")}
for backend, place in places.items():
    print(f"backend={backend!r:12} raises at {place}")
assert places == {"eager": "backward()",
                  "aot_eager": "the compiled call"}  # (2)!
# --8<-- [end:mutation]
