"""FAQ: a custom running-statistics buffer updated without no_grad keeps
every batch's graph alive."""

# --8<-- [start:running-stats-leak]
import torch
from torch import nn

from autograd_lens import SavedTensorLedger, autograd_graph


class MyBatchNorm(nn.Module):
    def __init__(self, num_features, momentum=0.1, fixed=False):
        super().__init__()
        self.momentum, self.fixed = momentum, fixed
        self.register_buffer("running_mean", torch.zeros(num_features))

    def forward(self, x):
        mean = x.mean(dim=0)
        if self.fixed:
            with torch.no_grad():  # (1)!
                self.update(mean)
        else:
            self.update(mean)  # (2)!
        return x - mean

    def update(self, mean):
        self.running_mean = ((1 - self.momentum) * self.running_mean
                             + self.momentum * mean)


torch.manual_seed(0)
for fixed in (False, True):
    net = nn.Sequential(nn.Linear(4, 8), MyBatchNorm(8, fixed=fixed))
    for step in range(3):
        net(torch.randn(16, 4)).pow(2).mean().backward()
    chain = len(autograd_graph(net[1].running_mean).nodes)  # (3)!
    with SavedTensorLedger() as ledger:
        for step in range(3):
            net(torch.randn(16, 4))  # (4)!
    print(f"no_grad={fixed}: graph behind running_mean: {chain > 1}")
    print(f"  forward passes leave tensors: {ledger.live_count > 0}")
    assert (chain > 1 and ledger.live_count > 0) == (not fixed)
# --8<-- [end:running-stats-leak]
