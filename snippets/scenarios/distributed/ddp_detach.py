# runner: subprocess
# timeout: 180
# raises: error RuntimeError
# stderr: the DDP workers warn that broadcast_buffers is deprecated (2.13+)
"""DDP (gloo, CPU, two processes): a detach inside forward leaves parameters
unused; the error, find_unused_parameters=True, and Post A's two forms."""

# --8<-- [start:setup]
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoStage(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stage1 = nn.Linear(4, 4)
        self.stage2 = nn.Linear(4, 1)

    def forward(self, x):
        h = self.stage1(x).detach()  # (1)!
        return self.stage2(h)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
# --8<-- [end:setup]

# --8<-- [start:error]
if __name__ == "__main__":
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))
    dist.init_process_group("gloo", rank=0, world_size=1)  # (1)!
    torch.manual_seed(0)
    x = torch.randn(8, 4)
    model = DDP(TwoStage())  # (2)!
    model(x).sum().backward()
    model(x)  # (3)!
# --8<-- [end:error]

# --8<-- [start:worker]
def worker(rank: int, world: int, port: int, results) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    x = torch.randn(8, 4) + rank
    out = {}

    model = DDP(TwoStage(), find_unused_parameters=True)  # (1)!
    for _ in range(2):
        model.zero_grad()
        model(x).sum().backward()
    named = model.module.named_parameters()
    out["grads"] = {n: p.grad is not None for n, p in named}
    g = model.module.stage2.weight.grad.clone()
    dist.all_reduce(g, op=dist.ReduceOp.MAX)
    same = torch.equal(g, model.module.stage2.weight.grad)
    out["stage2 grads equal on all ranks"] = same

    frozen = TwoStage()
    frozen.stage1.requires_grad_(False)  # (2)!
    model = DDP(frozen)
    for _ in range(2):
        model(x).sum().backward()
    out["frozen stage1, two iterations"] = "ok"

    net = DDP(nn.Linear(4, 1))  # (3)!
    a = net(x).detach()
    b = net(x)
    b = b.detach()
    no_grad_fn = a.grad_fn is None and b.grad_fn is None
    out["seed forms"] = (torch.equal(a, b), no_grad_fn)

    for broadcast in (True, False):  # (4)!
        bn = DDP(nn.BatchNorm1d(4, momentum=0.0),
                 broadcast_buffers=broadcast)
        bn.module.running_mean.fill_(float(rank))
        bn(x)
        key = f"running_mean after forward, broadcast_buffers={broadcast}"
        out[key] = bn.module.running_mean[0].item()
    results[rank] = out
    dist.destroy_process_group()
# --8<-- [end:worker]

# --8<-- [start:run]
if __name__ == "__main__":
    dist.destroy_process_group()  # (1)!
    with mp.Manager() as manager:
        results = manager.dict()
        mp.spawn(worker, args=(2, free_port(), results), nprocs=2)  # (2)!
        results = dict(results)
    r0, r1 = results[0], results[1]
    print("with find_unused_parameters=True, .grad set:")
    print("   ", r0["grads"])
    print("stage2 grads equal on all ranks:",
          r0["stage2 grads equal on all ranks"])
    print("stage1 frozen before wrapping, two iterations:",
          r0["frozen stage1, two iterations"])
    same, no_graph = r0["seed forms"]
    print("Post A's two forms, same values:", same)
    print("   and no grad_fn:", no_graph)
    for key in [k for k in r0 if k.startswith("running_mean")]:
        print(f"{key}: rank 0 {r0[key]}, rank 1 {r1[key]}")
    rest = [{k: v for k, v in r.items() if not k.startswith("running_mean")}
            for r in (r0, r1)]
    assert rest[0] == rest[1]
    assert results[0]["grads"] == {
        "stage1.weight": False,
        "stage1.bias": False,
        "stage2.weight": True,
        "stage2.bias": True,
    }
    assert results[0]["seed forms"] == (True, True)  # (3)!
    buffers = "running_mean after forward, broadcast_buffers="
    assert r0[buffers + "True"] == r1[buffers + "True"] == 0.0  # (4)!
    assert (r0[buffers + "False"], r1[buffers + "False"]) == (0.0, 1.0)
# --8<-- [end:run]
