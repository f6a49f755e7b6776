"""API inventory, torch.nn.Module: nn.Buffer (since PyTorch 2.5)."""

# --8<-- [start:buffer-class]
import torch
from torch import nn


class Stats(nn.Module):
    def __init__(self):
        super().__init__()
        self.mean = nn.Buffer(torch.zeros(2))  # (1)!
        self.tmp = nn.Buffer(torch.zeros(2), persistent=False)


stats = Stats()
print("buffers:", [n for n, _ in stats.named_buffers()])
print("state_dict:", list(stats.state_dict()))
assert list(stats.state_dict()) == ["mean"]
assert type(stats.mean) is torch.Tensor  # (2)!
# --8<-- [end:buffer-class]
