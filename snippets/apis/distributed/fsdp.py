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


class Cut(nn.Module):
    def __init__(self):
        super().__init__()
        self.body, self.head = nn.Linear(2, 2), nn.Linear(2, 1)

    def forward(self, x):
        return self.head(self.body(x).detach())  # (1)!


model = Cut()
fully_shard(model.body, reshard_after_forward=True)  # (2)!
fully_shard(model)
x = torch.ones(1, 2)
for step in range(2):
    model(x).sum().backward()  # (3)!
weight = model.head.weight
print("parameter type:", type(weight).__name__)
print("body.weight.grad:", model.body.weight.grad)
assert weight.is_leaf and model.body.weight.grad is None
one_step = weight.grad.full_tensor() / 2
model.set_requires_gradient_sync(False)  # (4)!
model(x).sum().backward()
model.set_requires_gradient_sync(True)
model(x).sum().backward()
assert torch.allclose(weight.grad.full_tensor(), 4 * one_step)
# --8<-- [end:fsdp]

dist.destroy_process_group()
