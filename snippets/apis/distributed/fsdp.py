# setup: fsdp
# timeout: 120
"""API inventory, FSDP2 (torch.distributed.fsdp, since 2.6): one process."""

import torch.distributed as dist

if not dist.is_initialized():
    dist.init_process_group("gloo", store=dist.HashStore(),
                            rank=0, world_size=1)

# --8<-- [start:fsdp]
import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
fully_shard(model[0], reshard_after_forward=True)  # (1)!
fully_shard(model)
model(torch.ones(1, 2)).sum().backward()
weight = model[0].weight
print("parameter type:", type(weight).__name__)
print("grad:", weight.grad is not None)
assert weight.grad is not None and weight.is_leaf
model.set_requires_gradient_sync(False)  # (2)!
model(torch.ones(1, 2)).sum().backward()
assert weight.grad is not None
# --8<-- [end:fsdp]

dist.destroy_process_group()
