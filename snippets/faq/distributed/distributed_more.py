# runner: subprocess
# timeout: 300
# raises: no-grad-broadcast-leaf RuntimeError
"""FAQ: more gradients across processes (gloo, CPU): one module called twice
under DDP with reentrant checkpointing (what detach() on one branch fixes,
and what it costs; one process); broadcasting parameters in place (the leaf
in-place error, broadcast into p.detach(), and why `p = p + 0` syncs
nothing; two processes)."""

# --8<-- [start:detach-one-branch-ddp]
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, reentrant):
        super().__init__()
        self.embed = nn.Linear(4, 4)
        self.block = nn.Linear(4, 4)
        self.reentrant = reentrant

    def forward(self, x):
        h = self.embed(x)
        return checkpoint(self.block, h, use_reentrant=self.reentrant)


def grads(reentrant, detach_b, static_graph=False):
    torch.manual_seed(0)
    enc = DDP(Encoder(reentrant), static_graph=static_graph)
    xa, xb = torch.randn(2, 4), torch.randn(2, 4)
    a, b = enc(xa), enc(xb)  # (1)!
    if detach_b:
        b = b.detach()  # (2)!
    (0.7 * a + 0.3 * b).sum().backward()
    return enc.module.block.weight.grad.clone()


if __name__ == "__main__" and dist.is_available():
    if not dist.is_initialized():
        dist.init_process_group("gloo", store=dist.HashStore(),
                                rank=0, world_size=1)  # (3)!
    results = {
        "reentrant, B detached": grads(True, True),
        "non-reentrant, B kept": grads(False, False),
        "reentrant, static_graph, B kept": grads(True, False, True),
    }
    dist.destroy_process_group()

    torch.manual_seed(0)
    ref = Encoder(False)
    xa, xb = torch.randn(2, 4), torch.randn(2, 4)
    (0.7 * ref(xa)).sum().backward()
    only_a = ref.block.weight.grad.clone()
    (0.3 * ref(xb)).sum().backward()  # (4)!
    both = ref.block.weight.grad
    for name, g in results.items():
        print(
            f"{name}:\n  block.weight.grad is A's share only: "
            f"{torch.allclose(g, only_a)}; A's + B's: "
            f"{torch.allclose(g, both)}"
        )
    detached = results["reentrant, B detached"]
    kept = results["non-reentrant, B kept"]
    static = results["reentrant, static_graph, B kept"]
    assert torch.allclose(detached, only_a)  # (5)!
    assert torch.allclose(kept, both) and not torch.allclose(kept, only_a)
    assert torch.allclose(static, both)
# --8<-- [end:detach-one-branch-ddp]

# --8<-- [start:no-grad-broadcast-leaf]
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn


def broadcast_worker(rank, world, results):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    p = nn.Parameter(torch.full((2,), float(rank)))
    q = nn.Parameter(torch.full((2,), float(rank)))
    with torch.no_grad():
        q_tmp = q + 0  # (1)!
        dist.broadcast(q_tmp, 0)
    dist.broadcast(p.detach(), 0)  # (2)!
    r = nn.Parameter(torch.full((2,), float(rank)))
    with torch.no_grad():
        dist.broadcast(r, 0)
    results[rank] = (p.tolist(), p.is_leaf, q.tolist(), r.tolist())
    dist.destroy_process_group()


if __name__ == "__main__" and dist.is_available():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    with mp.Manager() as manager:
        results = manager.dict()
        mp.spawn(broadcast_worker, args=(2, results), nprocs=2)
        results = dict(results)
    p1, p1_leaf, q1, r1 = results[1]
    print("rank 1 after broadcast(p.detach(), 0):", p1, "leaf:", p1_leaf)
    print("rank 1 after the `p + 0` workaround: ", q1)
    print("rank 1 after broadcast(p, 0) in no_grad:", r1)
    assert p1 == [0.0, 0.0] and p1_leaf
    assert q1 == [1.0, 1.0]
    assert r1 == [0.0, 0.0]

    w = nn.Parameter(torch.ones(2))
    with torch.no_grad():
        w.copy_(torch.zeros(2))
    assert w.is_leaf and w.requires_grad
    w.copy_(torch.ones(2))  # (3)!
# --8<-- [end:no-grad-broadcast-leaf]
