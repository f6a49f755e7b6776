# raises: ddp-unused RuntimeError
# warns: all-gather FutureWarning
# timeout: 120
"""API inventory, DDP: one process, gloo, CPU."""

# --8<-- [start:process-group]
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", store=dist.HashStore(),
                        rank=0, world_size=1)  # (1)!


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.used = nn.Linear(2, 1)
        self.unused = nn.Linear(2, 1)

    def forward(self, x):
        return self.used(x)  # (2)!


print("world size:", dist.get_world_size())
assert dist.get_world_size() == 1 and dist.get_rank() == 0
# --8<-- [end:process-group]

# --8<-- [start:ddp-unused]
model = DDP(TwoHeads())
model(torch.ones(1, 2)).sum().backward()
model(torch.ones(1, 2)).sum().backward()  # (1)!
# --8<-- [end:ddp-unused]

# --8<-- [start:find-unused]
model = DDP(TwoHeads(), find_unused_parameters=True)  # (1)!
for step in range(2):
    model(torch.ones(1, 2)).sum().backward()
print("unused.weight.grad:", model.module.unused.weight.grad)
assert model.module.used.weight.grad is not None
# --8<-- [end:find-unused]

# --8<-- [start:static-graph]
model = DDP(TwoHeads(), static_graph=True)  # (1)!
for step in range(3):
    model(torch.ones(1, 2)).sum().backward()
assert model.module.unused.weight.grad is None
print("used.weight.grad:", model.module.used.weight.grad.tolist())
# --8<-- [end:static-graph]

# --8<-- [start:no-sync]
buckets = []


def count_and_pass(state, bucket):
    buckets.append(bucket.index())  # (1)!
    future = torch.futures.Future()
    future.set_result(bucket.buffer())
    return future


model = DDP(nn.Linear(2, 1))
model.register_comm_hook(state=None, hook=count_and_pass)
with model.no_sync():  # (2)!
    model(torch.ones(1, 2)).sum().backward()
assert buckets == []
model(torch.ones(1, 2)).sum().backward()  # (3)!
print("all-reduced buckets:", len(buckets))
print("weight.grad:", model.module.weight.grad.tolist())
assert len(buckets) == 1
assert model.module.weight.grad.tolist() == [[2.0, 2.0]]
# --8<-- [end:no-sync]

# --8<-- [start:bucket-view]
model = DDP(nn.Linear(2, 1), gradient_as_bucket_view=True)
model(torch.ones(1, 2)).sum().backward()
grad = model.module.weight.grad
print("grad is a view of the bucket:", grad._is_view())
assert grad._is_view()  # (1)!
model.zero_grad()  # (2)!
assert model.module.weight.grad is None
# --8<-- [end:bucket-view]

# --8<-- [start:all-gather]
import torch.distributed.nn.functional as dist_fn

x = torch.ones(2, requires_grad=True)
gathered = [torch.zeros(2)]
dist.all_gather(gathered, x * 2)  # (1)!
assert gathered[0].grad_fn is None and not gathered[0].requires_grad
parts = dist_fn.all_gather(x * 2)  # (2)!
parts[0].sum().backward()
print("x.grad:", x.grad)
assert x.grad.tolist() == [2.0, 2.0]
# --8<-- [end:all-gather]


dist.destroy_process_group()
