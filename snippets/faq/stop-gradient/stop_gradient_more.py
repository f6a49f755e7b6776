# runner: subprocess
# timeout: 300
"""FAQ: one module called twice in forward under DDP with reentrant
checkpointing (gloo, CPU, two processes): what detach() on one branch
fixes, and what it costs."""

# --8<-- [start:detach-one-branch-ddp]
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
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


def worker(rank, world, results):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    results[rank] = {
        "reentrant, B detached": grads(True, True),
        "non-reentrant, B kept": grads(False, False),
        "reentrant, static_graph, B kept": grads(True, False, True),
    }
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

    torch.manual_seed(0)
    ref = Encoder(False)  # the same model, one process, no DDP
    xa, xb = torch.randn(2, 4), torch.randn(2, 4)
    (0.7 * ref(xa)).sum().backward()
    only_a = ref.block.weight.grad.clone()
    (0.3 * ref(xb)).sum().backward()  # (3)!
    both = ref.block.weight.grad
    detached = results[0]["reentrant, B detached"]
    kept = results[0]["non-reentrant, B kept"]
    static = results[0]["reentrant, static_graph, B kept"]
    for name, g in results[0].items():
        print(
            f"{name}:\n  block.weight.grad is A's share only: "
            f"{torch.allclose(g, only_a)}; A's + B's: "
            f"{torch.allclose(g, both)}"
        )
    assert torch.allclose(detached, only_a)  # (4)!
    assert torch.allclose(kept, both) and not torch.allclose(kept, only_a)
    assert torch.allclose(static, both)
    assert all(torch.equal(results[1][k], results[0][k]) for k in results[0])
# --8<-- [end:detach-one-branch-ddp]
