# runner: subprocess
# timeout: 120
# raises: ddp-frozen RuntimeError
"""Errors: wrapping a model in DistributedDataParallel (gloo, one process)."""

# --8<-- [start:ddp-frozen-fix]
import os
import socket

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
dist.init_process_group("gloo", rank=0, world_size=1)

backbone = torch.nn.Linear(4, 4).requires_grad_(False)
head = torch.nn.Linear(4, 2)
model = DDP(torch.nn.Sequential(backbone, head))
model(torch.ones(3, 4)).sum().backward()
print("head.grad:", head.weight.grad is not None,
      "| backbone.grad:", backbone.weight.grad)
assert head.weight.grad is not None and backbone.weight.grad is None

with torch.no_grad():
    features = backbone(torch.ones(3, 4))
print("frozen part, no DDP:", features.requires_grad)
assert not features.requires_grad
# --8<-- [end:ddp-frozen-fix]

# --8<-- [start:ddp-frozen]
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

frozen = torch.nn.Linear(4, 4).requires_grad_(False)
DDP(frozen)
# --8<-- [end:ddp-frozen]
