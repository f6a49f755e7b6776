# runner: subprocess
# timeout: 300
# stderr: DDP's C++ log warns that find_unused_parameters found none, and
# each worker process warns that torch.distributed.nn is deprecated
# raises: ddp-checkpoint-ready-twice RuntimeError
# raises: fsdp-frozen-params RuntimeError
"""FAQ: gradients across processes (gloo, CPU): all_gather and autograd (two
processes), reentrant checkpoints under DDP, frozen parameters in FSDP2 (one
process each: a one-process group teaches them without starting any)."""

# --8<-- [start:all-gather-no-grad]
import torch
import torch.distributed as dist

if __name__ == "__main__" and dist.is_available():
    if not dist.is_initialized():
        dist.init_process_group("gloo", store=dist.HashStore(),
                                rank=0, world_size=1)  # (1)!
    rank, world = dist.get_rank(), dist.get_world_size()
    feat = torch.full((2,), float(rank + 1), requires_grad=True)
    gathered = [torch.zeros(2) for _ in range(world)]
    dist.all_gather(gathered, feat)  # (2)!
    no_graph = all(t.grad_fn is None for t in gathered)
    gathered[rank] = feat  # (3)!
    torch.cat(gathered).pow(2).sum().backward()
    print(f"gathered tensors have no grad_fn: {no_graph}")
    print(f"own slot put back: feat.grad = {feat.grad.tolist()}")
    assert no_graph and feat.grad.tolist() == [2.0, 2.0]
    dist.destroy_process_group()
# --8<-- [end:all-gather-no-grad]

# --8<-- [start:dist-nn-all-gather-scale]
import os
import socket

import torch
import torch.distributed as dist
import torch.distributed.nn.functional as dist_fn
import torch.multiprocessing as mp


def scale_worker(rank, world, results):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    feat = torch.ones(2, requires_grad=True)
    gathered = dist_fn.all_gather(feat)  # (1)!
    torch.cat(gathered).sum().backward()  # (2)!
    differentiable = feat.grad.tolist()

    feat.grad = None
    local = [torch.zeros(2) for _ in range(world)]
    dist.all_gather(local, feat)
    local[rank] = feat
    torch.cat(local).sum().backward()  # (3)!
    results[rank] = (differentiable, feat.grad.tolist())
    dist.destroy_process_group()


if __name__ == "__main__" and dist.is_available():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.manual_seed(0)
    with mp.Manager() as manager:
        results = manager.dict()
        mp.spawn(scale_worker, args=(2, results), nprocs=2)
        results = dict(results)
    differentiable, local = results[0]
    print("torch.distributed.nn all_gather: feat.grad =", differentiable)
    print("all_gather + own slot put back:  feat.grad =", local)
    assert differentiable == [2.0, 2.0] and local == [1.0, 1.0]  # (4)!
    assert results[1] == results[0]
# --8<-- [end:dist-nn-all-gather-scale]

# --8<-- [start:ddp-checkpoint-ready-twice]
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self, reentrant):
        super().__init__()
        self.block = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)
        self.reentrant = reentrant

    def forward(self, x):
        h = checkpoint(self.block, x, use_reentrant=self.reentrant)
        return self.head(h)


if __name__ == "__main__" and dist.is_available():
    if not dist.is_initialized():
        dist.init_process_group("gloo", store=dist.HashStore(),
                                rank=0, world_size=1)  # (1)!
    torch.manual_seed(0)
    x = torch.randn(3, 4, requires_grad=True)

    model = DDP(Net(reentrant=True))  # (2)!
    model(x).sum().backward()
    assert model.module.block.weight.grad is not None
    print("ok: use_reentrant=True, plain DDP")

    model = DDP(Net(reentrant=False), find_unused_parameters=True)  # (3)!
    model(x).sum().backward()
    assert model.module.block.weight.grad is not None
    print("ok: use_reentrant=False, find_unused")

    from autograd_lens import reached_parameters

    net = Net(reentrant=True)
    found = reached_parameters(net(x).sum(), net)  # (4)!
    print("graph reaches:", found)
    assert found == ["head.weight", "head.bias"]

    model = DDP(Net(reentrant=True), find_unused_parameters=True)  # (5)!
    model(x).sum().backward()
# --8<-- [end:ddp-checkpoint-ready-twice]

# --8<-- [start:fsdp-frozen-params]
import torch
import torch.distributed as dist
from torch import nn

if __name__ == "__main__" and dist.is_available():  # (1)!
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import fully_shard

    if not dist.is_initialized():
        dist.init_process_group("gloo", store=dist.HashStore(),
                                rank=0, world_size=1)  # (2)!
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1))
    model[0].requires_grad_(False)  # (3)!
    fully_shard(model)  # (4)!
    model(torch.randn(2, 4)).sum().backward()
    got = {n: (p.requires_grad, p.grad is not None)
           for n, p in model.named_parameters()}
    for name, (req, has_grad) in got.items():
        print(f"{name}: requires_grad={req}, has .grad={has_grad}")
    assert got == {"0.weight": (False, False), "0.bias": (False, False),
                   "1.weight": (True, True), "1.bias": (True, True)}
    FSDP(nn.Linear(2, 2))  # (5)!
# --8<-- [end:fsdp-frozen-params]
