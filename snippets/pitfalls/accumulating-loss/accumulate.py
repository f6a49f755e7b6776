"""Summing losses without detach keeps graphs alive: count what stays."""

# --8<-- [start:setup]
import torch
from torch import nn

from autograd_lens import SavedTensorLedger

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 1))
batches = [torch.randn(32, 64) for _ in range(20)]


def graph_nodes(t):
    """Count the autograd nodes reachable from t.grad_fn."""
    seen, stack = set(), [t.grad_fn] if t.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions if n is not None)
    return len(seen)
# --8<-- [end:setup]

# --8<-- [start:eval-leak]
def evaluate(n, keep_graph):
    total = 0.0
    with SavedTensorLedger() as ledger:
        for xb in batches[:n]:
            loss = model(xb).pow(2).mean()
            total = total + (loss if keep_graph else loss.item())  # (1)!
        del loss
        return ledger.live_count, ledger.live_nbytes


kept = {n: evaluate(n, True) for n in (5, 10, 20)}
freed = {n: evaluate(n, False) for n in (5, 10, 20)}
for n in kept:
    print(
        f"{n:2} batches | += loss: {kept[n][0]:3} saved tensors alive,"
        f" {kept[n][1]:6} bytes"
        f" | += loss.item(): {freed[n][0]}"
    )
assert kept[20][1] - kept[10][1] == 2 * (kept[10][1] - kept[5][1]) > 0  # (2)!
assert all(count == 0 for count, _ in freed.values())
# --8<-- [end:eval-leak]


# --8<-- [start:train-chain]
def train(n, detach):
    total = 0.0
    for xb in batches[:n]:
        loss = model(xb).pow(2).mean()
        loss.backward()  # (1)!
        total = total + (loss.detach() if detach else loss)
    return graph_nodes(total) if torch.is_tensor(total) else 0


nodes = {n: (train(n, False), train(n, True)) for n in (5, 10, 20)}
for n, (plain, detached) in nodes.items():
    print(f"{n:2} steps | nodes kept alive by total: {plain:3}"
          f" | with detach(): {detached}")
assert (
    nodes[20][0] - nodes[10][0] == 2 * (nodes[10][0] - nodes[5][0]) > 0
)  # (2)!
assert all(detached == 0 for _, detached in nodes.values())
# --8<-- [end:train-chain]

# --8<-- [start:seed-000]
x = torch.randn(256, 256, requires_grad=True)
with SavedTensorLedger() as ledger:
    huge_tensor = (x * 3).sin()  # sin saves its input
    processed = huge_tensor.detach() * 2  # (1)!
    print("after detach:            live saved tensors =", ledger.live_count)
    assert ledger.live_count == 1
    huge_tensor = None  # (2)!
    print("after huge_tensor = None: live saved tensors =", ledger.live_count)
    assert ledger.live_count == 0
# --8<-- [end:seed-000]
