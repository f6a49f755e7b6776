# raises: no-detach RuntimeError
# raises: retain-graph RuntimeError
"""Truncated BPTT: detach the hidden state between chunks; the error without
it; what autograd holds per chunk; and seed 003's segment loop."""

# --8<-- [start:setup]
import torch
from torch import nn

from autograd_lens import SavedTensorLedger

torch.manual_seed(0)
T, B, H = 120, 4, 32
rnn = nn.RNN(input_size=8, hidden_size=H, batch_first=True)
readout = nn.Linear(H, 1)
xs, ys = torch.randn(B, T, 8), torch.randn(B, T, 1)
opt = torch.optim.SGD([*rnn.parameters(), *readout.parameters()], lr=0.01)

def train_chunks(k: int, detach: bool = True) -> int:
    """One pass over the sequence in chunks of k steps; returns the most bytes
    autograd held when a backward() started."""
    h = torch.zeros(1, B, H)
    most = 0
    for start in range(0, T, k):
        if detach:
            h = h.detach()  # (1)!
        with SavedTensorLedger() as ledger:
            out, h = rnn(xs[:, start:start + k], h)
            loss = nn.functional.mse_loss(readout(out), ys[:, start:start + k])
        most = max(most, ledger.live_nbytes)
        opt.zero_grad()
        loss.backward()  # (2)!
        opt.step()
    return most
# --8<-- [end:setup]

# --8<-- [start:no-detach]
train_chunks(20, detach=False)
# --8<-- [end:no-detach]

# --8<-- [start:retain-graph]
h = torch.zeros(1, B, H)
for start in range(0, T, 20):
    out, h = rnn(xs[:, start:start + 20], h)
    loss = nn.functional.mse_loss(readout(out), ys[:, start:start + 20])
    opt.zero_grad()
    loss.backward(retain_graph=True)  # (1)!
    opt.step()
# --8<-- [end:retain-graph]

# --8<-- [start:memory]
held = {k: train_chunks(k) for k in (10, 20, 40, 120)}
for k, nbytes in held.items():
    print(f"chunk length {k}: {nbytes:,} B held")
per_step = {k: (held[k] - held[10]) / (k - 10) for k in (20, 40, 120)}
assert len({round(v) for v in per_step.values()}) == 1  # (1)!
print(f"each extra time step adds {round(per_step[20]):,} bytes")

h = torch.zeros(1, B, H)
with SavedTensorLedger() as ledger:
    for start in range(0, T, 20):
        out, h = rnn(xs[:, start:start + 20], h)
        loss = nn.functional.mse_loss(readout(out), ys[:, start:start + 20])
        loss.backward(retain_graph=True)  # (2)!
print(
    f"retain_graph=True, chunks of 20: {ledger.live_nbytes:,} B held"
)
assert ledger.live_nbytes > 3 * held[20]
# --8<-- [end:memory]

# --8<-- [start:seed-loop]
from autograd_lens import reached_parameters

segment_encoder = nn.Linear(8, H)
aggregate = nn.Linear(H, 1)
hidden_states = []
for segment in xs.split(20, dim=1):
    h_seg = segment_encoder(segment).mean(dim=1)
    hidden_states.append(h_seg.detach())  # (1)!
final = aggregate(torch.stack(hidden_states).mean(0)).sum()
modules = {"segment_encoder": segment_encoder, "aggregate": aggregate}
for name, module in modules.items():
    print(
        f"final loss reaches {name + ':':16}",
        reached_parameters(final, module),
    )
assert reached_parameters(final, segment_encoder) == []  # (2)!
assert reached_parameters(final, aggregate) == ["weight", "bias"]
# --8<-- [end:seed-loop]
