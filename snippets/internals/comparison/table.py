# raises: error-detach RuntimeError
# raises: error-detach-inplace RuntimeError
# raises: error-requires-grad RuntimeError
# raises: inference-write RuntimeError
# raises: requires-grad-nonleaf RuntimeError
"""Eight ways to get values "without gradient", measured side by side.

Each row makes `out` from a tensor `src` that backward needs (it was saved by
`loss = (src * src).sum()`), and each column is a measurement, asserted below.
"""

# --8<-- [start:measure]
import torch


def make(kind):
    """Return (x, src, loss, out) for one row of the table."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    src = x if kind == "requires_grad_(False)" else x * 1  # (1)!
    loss = (src * src).sum()
    if kind == "detach()":
        out = src.detach()
    elif kind == "detach_()":
        out = src.detach_()
    elif kind == ".data":
        out = src.data
    elif kind == "clone()":
        out = src.clone()
    elif kind == "detach().clone()":
        out = src.detach().clone()
    elif kind == "no_grad()":
        with torch.no_grad():
            out = src * 1  # (2)!
    elif kind == "inference_mode()":
        with torch.inference_mode():
            out = src * 1
    elif kind == "requires_grad_(False)":
        out = src.requires_grad_(False)
    return x, src, loss, out


def write(out):
    """An in-place write through out, allowed wherever the row allows one."""
    ctx = torch.inference_mode() if out.is_inference() else torch.no_grad()
    with ctx:
        out.add_(1)


def new_object(kind):
    _, src, _, out = make(kind)
    return out is not src


def shares_storage(kind):
    _, src, _, out = make(kind)
    return out.untyped_storage().data_ptr() == src.untyped_storage().data_ptr()


def shares_version(kind):
    _, src, _, out = make(kind)
    if out.is_inference():
        return None  # (3)!
    before = src._version
    write(out)
    return src._version == before + 1 and out._version == src._version


def records_graph(kind):
    _, _, _, out = make(kind)
    return (out * 2).requires_grad  # (4)!


def grad_flows(kind):
    x, _, _, out = make(kind)
    result = (out * 2).sum()
    if not result.requires_grad:
        return False
    result.backward()
    return x.grad is not None


def inplace_outcome(kind):
    x, _, loss, out = make(kind)
    expected = 2 * x.detach()
    write(out)
    loss.backward()
    return "correct" if torch.equal(x.grad, expected) else "WRONG"


KINDS = ["detach()", "detach_()", ".data", "clone()", "detach().clone()",
         "no_grad()", "inference_mode()", "requires_grad_(False)"]
COLUMNS = [new_object, shares_storage, shares_version,
           records_graph, grad_flows]
RAISES = ["detach()", "detach_()", "requires_grad_(False)"]  # (5)!
measured = {
    k: tuple(col(k) for col in COLUMNS)
    + ("error" if k in RAISES else inplace_outcome(k),)
    for k in KINDS
}
# --8<-- [end:measure]

# --8<-- [start:expected]
T, F, NA = True, False, None
EXPECTED = {
    "detach()": (T, T, T, F, F, "error"),
    "detach_()": (F, T, T, F, F, "error"),
    ".data": (T, T, F, F, F, "WRONG"),
    "clone()": (T, F, F, T, T, "correct"),
    "detach().clone()": (T, F, F, F, F, "correct"),
    "no_grad()": (T, F, F, F, F, "correct"),
    "inference_mode()": (T, F, NA, F, F, "correct"),
    "requires_grad_(False)": (F, T, T, F, F, "error"),
}
for kind in KINDS:
    assert measured[kind] == EXPECTED[kind], (kind, measured[kind])  # (1)!
# --8<-- [end:expected]

# --8<-- [start:error-detach]
inplace_outcome("detach()")  # (1)!
# --8<-- [end:error-detach]

# --8<-- [start:error-detach-inplace]
leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
leaf_loss = (leaf * leaf).sum()
leaf.detach_()
leaf_loss.backward()  # (1)!
assert leaf.grad is None

_, src, loss, _ = make("detach_()")
assert src.is_leaf and not src.requires_grad
loss.backward()  # (2)!
# --8<-- [end:error-detach-inplace]

# --8<-- [start:error-requires-grad]
inplace_outcome("requires_grad_(False)")  # (1)!
# --8<-- [end:error-requires-grad]

# --8<-- [start:inference-write]
_, _, _, inf = make("inference_mode()")
assert inf.is_inference()
inf.add_(1)  # (1)!
# --8<-- [end:inference-write]

# --8<-- [start:requires-grad-nonleaf]
leaf = torch.ones(2, requires_grad=True)
(leaf * 1).requires_grad_(False)  # (1)!
# --8<-- [end:requires-grad-nonleaf]


# --8<-- [start:table]
def cell(v):
    marks = {True: "✓", False: "✗", None: "—"}
    return v if isinstance(v, str) else marks[v]


LABELS = {
    "no_grad()": "no_grad(): src*1",
    "inference_mode()": "inference_mode(): src*1",
    "requires_grad_(False)": "x.requires_grad_(False)",
}
HEADERS = ["new", "storage", "version", "graph", "grad", "in-place"]  # (1)!
print("| out | " + " | ".join(HEADERS) + " |")
print("|---" * (len(HEADERS) + 1) + "|")
for kind in KINDS:
    default = f"src{kind}" if kind.startswith(".") else f"src.{kind}"
    label = LABELS.get(kind, default)
    print(f"| {label} | " + " | ".join(cell(v) for v in measured[kind]) + " |")
# --8<-- [end:table]
