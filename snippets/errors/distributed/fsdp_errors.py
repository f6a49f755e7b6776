# setup: fsdp-view-output-fix
# timeout: 120
# warns: fsdp-view-output UserWarning
"""Errors: a module wrapped with FSDP2's fully_shard that returns a view
(gloo, one process, CPU)."""

import torch.distributed as dist

if not dist.is_initialized():
    dist.init_process_group("gloo", store=dist.HashStore(),
                            rank=0, world_size=1)

# --8<-- [start:fsdp-view-output-fix]
import torch
from torch.distributed.fsdp import fully_shard


class Flat(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x).view(-1).clone()


model = Flat()
fully_shard(model)
out = model(torch.ones(2, 4))
out += 1
out.sum().backward()
print("view:", out._is_view(), "| grad:", model.lin.weight.grad is not None)
assert not out._is_view() and model.lin.weight.grad is not None
# --8<-- [end:fsdp-view-output-fix]

# --8<-- [start:fsdp-view-output]
import torch
from torch.distributed.fsdp import fully_shard


class Flat(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x).view(-1)


model = Flat()
fully_shard(model)
out = model(torch.ones(2, 4))
# --8<-- [end:fsdp-view-output]

dist.destroy_process_group()
