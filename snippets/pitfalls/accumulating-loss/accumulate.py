"""Summing losses without detach keeps graphs alive: the loop to write, then
a count of what stays."""

# --8<-- [start:setup]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [torch.randn(32, 64) for _ in range(20)]
# --8<-- [end:setup]

# --8<-- [start:wrong]
total_loss = 0.0
for xb in batches:
    loss = model(xb).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss  # (1)!
print("total_loss has a grad_fn:", total_loss.grad_fn is not None)
assert total_loss.grad_fn is not None
# --8<-- [end:wrong]

# --8<-- [start:right]
total_loss = 0.0
for xb in batches:
    loss = model(xb).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss.item()  # (1)!
print("average training loss:", round(total_loss / len(batches), 4))
assert isinstance(total_loss, float)

total_loss = 0.0
with torch.no_grad():  # (2)!
    for xb in batches:
        total_loss += model(xb).pow(2).mean().item()
print("average eval loss:", round(total_loss / len(batches), 4))
# --8<-- [end:right]

# --8<-- [start:eval-leak]
from autograd_lens import SavedTensorLedger


def evaluate(n, keep_graph):
    total_loss = 0.0
    with SavedTensorLedger() as ledger:  # (1)!
        for xb in batches[:n]:
            loss = model(xb).pow(2).mean()
            total_loss += loss if keep_graph else loss.item()
        del loss
        return ledger.live_count, ledger.live_nbytes


kept = {n: evaluate(n, True) for n in (5, 10, 20)}
freed = {n: evaluate(n, False) for n in (5, 10, 20)}
for n, (count, nbytes) in kept.items():
    print(f"{n} batches: {count} saved tensors, {nbytes} B")
print("with .item():", [count for count, _ in freed.values()])
assert kept[20][1] - kept[10][1] == 2 * (kept[10][1] - kept[5][1]) > 0  # (2)!
assert all(count == 0 for count, _ in freed.values())
# --8<-- [end:eval-leak]


# --8<-- [start:train-chain]
def graph_nodes(t):
    seen, stack = set(), [t.grad_fn] if t.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions if n is not None)
    return len(seen)


def train(n, detach):
    total_loss = 0.0
    with SavedTensorLedger() as ledger:
        for xb in batches[:n]:
            loss = model(xb).pow(2).mean()
            loss.backward()  # (1)!
            total_loss += loss.detach() if detach else loss
    assert ledger.count > 0 and ledger.live_count == 0
    return graph_nodes(total_loss)


nodes = {n: (train(n, False), train(n, True)) for n in (5, 10, 20)}
for n, (plain, detached) in nodes.items():
    print(f"{n} steps: {plain} nodes kept")
print("with .detach():", [detached for _, detached in nodes.values()])
assert (
    nodes[20][0] - nodes[10][0] == 2 * (nodes[10][0] - nodes[5][0]) > 0
)  # (2)!
assert all(detached == 0 for _, detached in nodes.values())
# --8<-- [end:train-chain]

# --8<-- [start:seed-000]
x = torch.randn(256, 256, requires_grad=True)
with SavedTensorLedger() as ledger:
    huge_tensor = (x * 3).sin()  # (1)!
    processed = huge_tensor.detach() * 2  # (2)!
    print("after detach: saved tensors alive =", ledger.live_count)
    assert ledger.live_count == 1
    huge_tensor = None  # (3)!
    print("after huge_tensor = None:", ledger.live_count)
    assert ledger.live_count == 0
# --8<-- [end:seed-000]
