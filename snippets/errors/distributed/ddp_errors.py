# runner: subprocess
# timeout: 120
# raises: ddp-frozen RuntimeError
# raises: ddp-marked-twice RuntimeError
# raises: ddp-unused RuntimeError
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

# --8<-- [start:ddp-marked-twice-fix]
import torch
import torch.utils.checkpoint
from torch.nn.parallel import DistributedDataParallel as DDP


class Block(torch.nn.Module):
    def __init__(self, use_reentrant):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.use_reentrant = use_reentrant

    def forward(self, x):
        return torch.utils.checkpoint.checkpoint(
            self.lin, x, use_reentrant=self.use_reentrant
        )


class WithSpare(Block):
    def __init__(self, use_reentrant):
        super().__init__(use_reentrant)
        self.spare = torch.nn.Linear(4, 4)


x = torch.ones(2, 4, requires_grad=True)
model = DDP(WithSpare(use_reentrant=False), find_unused_parameters=True)
for step in range(2):
    model(x).sum().backward()
print("non-reentrant:", model.module.lin.weight.grad is not None)
assert model.module.lin.weight.grad is not None
assert model.module.spare.weight.grad is None

model = DDP(Block(use_reentrant=True))
for step in range(2):
    model(x).sum().backward()
print("reentrant, find_unused_parameters off:",
      model.module.lin.weight.grad is not None)
assert model.module.lin.weight.grad is not None
# --8<-- [end:ddp-marked-twice-fix]

# --8<-- [start:ddp-marked-twice]
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return checkpoint(self.lin, x, use_reentrant=True)


model = DDP(Block(), find_unused_parameters=True)
x = torch.ones(2, 4, requires_grad=True)
model(x).sum().backward()
# --8<-- [end:ddp-marked-twice]

# --8<-- [start:ddp-unused-fix]
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoHeads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.used = torch.nn.Linear(4, 2)
        self.spare = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.used(x)


model = DDP(TwoHeads(), find_unused_parameters=True)
for step in range(2):
    model(torch.ones(3, 4)).sum().backward()
print(model.module.spare.weight.grad)
assert model.module.spare.weight.grad is None
# --8<-- [end:ddp-unused-fix]

# --8<-- [start:ddp-unused]
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoHeads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.used = torch.nn.Linear(4, 2)
        self.spare = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.used(x)


model = DDP(TwoHeads())
for step in range(2):
    model(torch.ones(3, 4)).sum().backward()
# --8<-- [end:ddp-unused]
