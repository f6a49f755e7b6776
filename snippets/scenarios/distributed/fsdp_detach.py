# runner: subprocess
# timeout: 180
"""FSDP2 (fully_shard, gloo, CPU, two processes): a detach inside forward
leaves the parameters before it without a gradient, and, unlike DDP, needs
no flag to run on."""

# --8<-- [start:fsdp]
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import fully_shard


class TwoStage(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stage1 = nn.Linear(4, 4)
        self.stage2 = nn.Linear(4, 1)

    def forward(self, x):
        return self.stage2(self.stage1(x).detach())  # (1)!


def fsdp_worker(rank: int, world: int, port: int, results) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = TwoStage()
    fully_shard(model.stage1)
    fully_shard(model.stage2)
    fully_shard(model)  # (2)!
    x = torch.randn(8, 4) + rank
    for _ in range(2):  # (3)!
        model.zero_grad()
        model(x).sum().backward()
    named = model.named_parameters()
    grads = {n: p.grad is not None for n, p in named}
    full = model.stage2.weight.grad.full_tensor()  # (4)!
    results[rank] = (grads, full.tolist(),
                     type(model.stage2.weight).__name__)
    dist.destroy_process_group()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    with mp.Manager() as manager:
        results = manager.dict()
        mp.spawn(fsdp_worker, args=(2, free_port(), results), nprocs=2)
        results = dict(results)
    (grads0, full0, kind), (grads1, full1, _) = results[0], results[1]
    print("parameters are", kind, "shards; two iterations ran")
    print(".grad set:", grads0)
    print("stage2 gradient identical on both ranks:", full0 == full1)
    assert grads0 == grads1 == {"stage1.weight": False, "stage1.bias": False,
                                "stage2.weight": True, "stage2.bias": True}
    assert full0 == full1 and kind == "DTensor"
# --8<-- [end:fsdp]
