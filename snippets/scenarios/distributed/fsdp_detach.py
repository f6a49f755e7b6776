# runner: subprocess
# timeout: 120
"""FSDP2 (fully_shard, gloo, CPU, a group of one process, like DDP's error
above): a detach inside forward leaves the parameters before it without a
gradient, and, unlike DDP, needs no flag to run on."""

# --8<-- [start:fsdp]
import torch
import torch.distributed as dist
from torch import nn


class TwoStage(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stage1 = nn.Linear(4, 4)
        self.stage2 = nn.Linear(4, 1)

    def forward(self, x):
        return self.stage2(self.stage1(x).detach())  # (1)!


if __name__ == "__main__":
    from torch.distributed.fsdp import fully_shard  # (2)!

    dist.init_process_group("gloo", store=dist.HashStore(),
                            rank=0, world_size=1)  # (3)!
    torch.manual_seed(0)
    model = TwoStage()
    fully_shard(model.stage1)
    fully_shard(model.stage2)
    fully_shard(model)  # (4)!
    x = torch.randn(8, 4)
    for _ in range(2):  # (5)!
        model.zero_grad()
        model(x).sum().backward()
    grads = {n: p.grad is not None for n, p in model.named_parameters()}
    kind = type(model.stage2.weight).__name__
    print("parameters are", kind, "shards; two iterations ran")
    print(".grad set:", grads)
    assert grads == {"stage1.weight": False, "stage1.bias": False,
                     "stage2.weight": True, "stage2.bias": True}
    assert kind == "DTensor"
    dist.destroy_process_group()
# --8<-- [end:fsdp]
