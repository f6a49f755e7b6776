"""How close the truncated-BPTT gradient is to the full-BPTT gradient, for
several chunk lengths k, on a small seeded RNN."""

# --8<-- [start:fidelity]
import torch
from torch import nn
from torch.nn.functional import cosine_similarity, mse_loss

torch.manual_seed(0)
T, B, H = 60, 4, 16
rnn = nn.RNN(input_size=8, hidden_size=H, batch_first=True)
readout = nn.Linear(H, 1)
xs, ys = torch.randn(B, T, 8), torch.randn(B, T, 1)


def rnn_gradient(k: int) -> torch.Tensor:
    """The RNN's gradient of the loss over the whole sequence, summed over
    chunks of k steps with h detached between them (no optimizer step)."""
    rnn.zero_grad(set_to_none=True)
    h = torch.zeros(1, B, H)
    for start in range(0, T, k):
        h = h.detach()  # (1)!
        chunk = slice(start, start + k)
        out, h = rnn(xs[:, chunk], h)
        mse_loss(readout(out), ys[:, chunk], reduction="sum").backward()
    return torch.cat([p.grad.flatten() for p in rnn.parameters()])


full = rnn_gradient(T)  # (2)!
cosine = {}
for k in (1, 2, 5, 10, 20, 30, T):
    cosine[k] = cosine_similarity(rnn_gradient(k), full, dim=0).item()
    print(f"k = {k}: cosine {cosine[k]:.3f}")
values = list(cosine.values())
assert all(a < b for a, b in zip(values, values[1:]))  # (3)!
assert values[0] < 0.95 and values[-2] > 0.99
assert abs(cosine[T] - 1) < 1e-6  # (4)!
# --8<-- [end:fidelity]
