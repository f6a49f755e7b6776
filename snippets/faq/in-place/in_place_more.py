# runner: subprocess
# timeout: 300
# raises: no-grad-broadcast-leaf RuntimeError
"""FAQ: broadcasting parameters in place (gloo, CPU, two processes): the
leaf in-place error, broadcast into p.detach(), and why `p = p + 0` syncs
nothing."""

# --8<-- [start:no-grad-broadcast-leaf]
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn


def worker(rank, world, results):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    p = nn.Parameter(torch.full((2,), float(rank)))
    q = nn.Parameter(torch.full((2,), float(rank)))
    with torch.no_grad():
        q_tmp = q + 0  # (1)!
        dist.broadcast(q_tmp, 0)
    dist.broadcast(p.detach(), 0)  # (2)!
    results[rank] = (p.tolist(), p.is_leaf, q.tolist())
    dist.destroy_process_group()


if __name__ == "__main__" and dist.is_available():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    with mp.Manager() as manager:
        results = manager.dict()
        mp.spawn(worker, args=(2, results), nprocs=2)
        results = dict(results)
    p1, p1_leaf, q1 = results[1]
    print("rank 1 after broadcast(p.detach(), 0):", p1, "leaf:", p1_leaf)
    print("rank 1 after the `p + 0` workaround: ", q1)
    assert p1 == [0.0, 0.0] and p1_leaf  # synced, still a leaf
    assert q1 == [1.0, 1.0]  # not synced: only the temporary was

    w = nn.Parameter(torch.ones(2))
    with torch.no_grad():
        w.copy_(torch.zeros(2))  # allowed under no_grad
    assert w.is_leaf and w.requires_grad
    w.copy_(torch.ones(2))  # (3)!
# --8<-- [end:no-grad-broadcast-leaf]
