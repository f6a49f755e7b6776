# raises: segment-memory-wrong RuntimeError
"""Sequence patterns: repackaging an LSTM's hidden state between BPTT
chunks, and Transformer-XL's segment memory, then what goes wrong
without the detach."""

# --8<-- [start:setup]
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
data, targets = torch.randn(40, 2, 3), torch.randn(40, 2, 1)
bptt = 10
# --8<-- [end:setup]

# --8<-- [start:repackage-hidden]
lstm, decoder = nn.LSTM(3, 8), nn.Linear(8, 1)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()  # (1)!
    return tuple(repackage_hidden(v) for v in h)


hidden = (torch.zeros(1, 2, 8), torch.zeros(1, 2, 8))
for i in range(0, data.size(0), bptt):
    hidden = repackage_hidden(hidden)
    output, hidden = lstm(data[i:i + bptt], hidden)
    loss = F.mse_loss(decoder(output), targets[i:i + bptt])
    lstm.zero_grad()
    loss.backward()
print("chunks trained:", data.size(0) // bptt)
assert hidden[0].grad_fn is not None
# --8<-- [end:repackage-hidden]

# --8<-- [start:segment-memory]
layer, head = nn.Linear(3, 8), nn.Linear(8, 1)
mem_len = 10


def update_mems(hids, mems):
    with torch.no_grad():  # (1)!
        cat = torch.cat([mems, hids], dim=0)
        return cat[-mem_len:].detach()


mems = torch.zeros(0, 2, 8)
for i in range(0, data.size(0), bptt):
    hids = torch.tanh(layer(data[i:i + bptt]))
    context = torch.cat([mems, hids], dim=0).mean(dim=0)  # (2)!
    loss = F.mse_loss(head(hids + context), targets[i:i + bptt])
    loss.backward()
    mems = update_mems(hids, mems)
print("memory shape:", tuple(mems.shape), "| grad_fn:", mems.grad_fn)
assert mems.grad_fn is None
# --8<-- [end:segment-memory]

# --8<-- [start:segment-memory-wrong]
mems = torch.zeros(0, 2, 8)
for i in range(0, data.size(0), bptt):
    hids = torch.tanh(layer(data[i:i + bptt]))
    context = torch.cat([mems, hids], dim=0).mean(dim=0)
    loss = F.mse_loss(head(hids + context), targets[i:i + bptt])
    print("segment", i // bptt, "| memory has a grad_fn:",
          mems.grad_fn is not None)
    loss.backward()  # (1)!
    mems = torch.cat([mems, hids], dim=0)[-mem_len:]
# --8<-- [end:segment-memory-wrong]
