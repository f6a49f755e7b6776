# raises: second-backward RuntimeError
"""What backward saves, when it is freed, and how long a graph lives."""

# --8<-- [start:what-is-saved]
import torch

from autograd_lens import SavedTensorLedger

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
with SavedTensorLedger() as ledger:
    y = x.exp()  # (1)!
    z = (y * x).sum()  # (2)!

print("saved tensors:", ledger.count, " still alive:", ledger.live_count)
saved_result = y.grad_fn._saved_result  # (3)!
print("ExpBackward0 saved its result:", torch.equal(saved_result, y))
assert ledger.count == 3 and ledger.live_count == 3

z.backward()  # (4)!
print("after backward, still alive:", ledger.live_count)
assert ledger.live_count == 0
# --8<-- [end:what-is-saved]

# --8<-- [start:second-backward]
x.grad = None
y = x.exp()
z = (y * x).sum()
z.backward()
z.backward()  # (1)!
# --8<-- [end:second-backward]

# --8<-- [start:retain-graph]
x.grad = None
y = x.exp()
z = (y * x).sum()
z.backward(retain_graph=True)  # (1)!
first = x.grad.clone()
z.backward()  # (2)!
print("after one backward: ", first)
print("after two backwards:", x.grad)
assert torch.allclose(x.grad, 2 * first)
# --8<-- [end:retain-graph]

# --8<-- [start:accumulate]
torch.manual_seed(0)
w = torch.randn(256, requires_grad=True)
batches = [torch.randn(256) for _ in range(5)]


def train_steps(keep):
    """Sum five losses; return the live saved-tensor count after each step."""
    alive = []
    with SavedTensorLedger() as ledger:
        total = 0.0
        for xb in batches:
            loss = (w * xb).tanh().sum()
            total += keep(loss)  # (1)!
            alive.append(ledger.live_count)
    return alive


as_tensor = train_steps(lambda loss: loss)
as_float = train_steps(lambda loss: loss.item())
as_detached = train_steps(lambda loss: loss.detach())
print("total += loss          ->", as_tensor)
print("total += loss.item()   ->", as_float)
print("total += loss.detach() ->", as_detached)
assert as_tensor == [2, 4, 6, 8, 10]  # (2)!
assert as_float == as_detached == [2, 2, 2, 2, 2]  # (3)!
# --8<-- [end:accumulate]


# --8<-- [start:with-backward]
from autograd_lens import autograd_graph


def train_steps_with_backward(keep):
    """Like train_steps, plus backward() each step and total's node count."""
    alive, nodes = [], []
    with SavedTensorLedger() as ledger:
        total = 0.0
        for xb in batches:
            w.grad = None
            loss = (w * xb).tanh().sum()
            loss.backward()  # (1)!
            total += keep(loss)
            alive.append(ledger.live_count)
            if torch.is_tensor(total):
                nodes.append(
                    len(autograd_graph(total).labels("backward"))
                )  # (2)!
            else:
                nodes.append(0)
    return alive, nodes


alive_tensor, nodes_tensor = train_steps_with_backward(lambda loss: loss)
alive_float, nodes_float = train_steps_with_backward(lambda loss: loss.item())
print("saved tensors alive:")
print("   += loss:       ", alive_tensor)
print("   += loss.item():", alive_float)
print("backward nodes held:")
print("   += loss:       ", nodes_tensor)
print("   += loss.item():", nodes_float)
assert alive_tensor == alive_float == [0, 0, 0, 0, 0]  # (3)!
assert nodes_tensor == [4, 8, 12, 16, 20] and nodes_float == [0] * 5  # (4)!
# --8<-- [end:with-backward]
