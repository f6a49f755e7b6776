"""FAQ: memory that grows in a loop is memory still referenced; a cache
release cannot free it (measured on CPU with saved-tensor bytes)."""

# --8<-- [start:empty-cache-no-help]
import torch

from autograd_lens import SavedTensorLedger

torch.manual_seed(0)
model = torch.nn.Linear(64, 64)
batches = [torch.randn(16, 64) for _ in range(4)]

with SavedTensorLedger() as ledger:
    outputs = []
    live = []
    for x in batches:
        outputs.append(model(x).relu())  # (1)!
        live.append(ledger.live_nbytes)
    print("bytes held by graphs, kept outputs:", live)
    assert live[0] > 0 and live == [live[0] * n for n in range(1, 5)]

    outputs.clear()  # (2)!
    print("after dropping the references:", ledger.live_nbytes)
    assert ledger.live_nbytes == 0

    for x in batches:
        outputs.append(model(x).relu().detach())  # (3)!
    print("kept detached outputs:", ledger.live_nbytes)
    assert ledger.live_nbytes == 0
# --8<-- [end:empty-cache-no-help]
