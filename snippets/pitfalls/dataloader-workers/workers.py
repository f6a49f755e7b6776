"""DataLoader workers are processes; seed 002's two collate functions behave
the same."""

# --8<-- [start:collate]
import os

import torch
from torch.utils.data import DataLoader, get_worker_info

data = [torch.full((3,), float(i)) for i in range(8)]


def collate_fn(batch):
    return torch.stack(batch).detach().numpy()


def safe_collate_fn(batch):
    return torch.stack(batch).cpu().detach().numpy()


def load(collate):
    loader = DataLoader(data, batch_size=4, num_workers=2,
                        collate_fn=collate)  # (1)!
    return [b.tolist() for b in loader]


a, b = load(collate_fn), load(safe_collate_fn)
print("batches:", len(a), " identical:", a == b)
expected = [[[float(i)] * 3 for i in range(k, k + 4)] for k in (0, 4)]
assert a == b == expected
# --8<-- [end:collate]

# --8<-- [start:processes]
def whoami(batch):
    info = get_worker_info()
    return {"pid": os.getpid(), "worker": info.id,
            "tensor_device": str(batch[0].device),
            "requires_grad": batch[0].requires_grad}


print("CUDA initialised in the main process:", torch.cuda.is_initialized())
assert not torch.cuda.is_initialized()  # (1)!
loader = DataLoader(data, batch_size=2, num_workers=2, collate_fn=whoami)
seen = list(loader)
pids = {s["pid"] for s in seen}
print("worker ids:", sorted({s["worker"] for s in seen}))
print("distinct worker processes:", len(pids))
print("main process among them:", os.getpid() in pids)
print("start method:", torch.multiprocessing.get_start_method())
assert torch.multiprocessing.get_start_method() == "fork"
print("devices:", {s["tensor_device"] for s in seen},
      " requires_grad:", {s["requires_grad"] for s in seen})
assert len(pids) == 2 and os.getpid() not in pids
assert {s["tensor_device"] for s in seen} == {"cpu"}
# --8<-- [end:processes]

# --8<-- [start:numpy-seed]
import numpy as np

rng = np.random.default_rng(0)


def draw(batch):
    info = get_worker_info()
    number, own = int(np.random.randint(0, 2**31)), int(rng.integers(2**31))
    return info.id, number, torch.get_num_threads(), own


torch.manual_seed(0)  # (1)!
loader = DataLoader(range(4), batch_size=1, num_workers=2, collate_fn=draw)
draws = list(loader)
by_worker, own_rng = {}, {}
for worker, number, threads, own in draws:
    by_worker.setdefault(worker, []).append(number)
    own_rng.setdefault(worker, []).append(own)
print("np.random: workers drew the same numbers:",
      by_worker[0] == by_worker[1])
print("own Generator: workers drew the same numbers:",
      own_rng[0] == own_rng[1])  # (2)!
print("torch threads inside each worker:", {d[2] for d in draws})
assert by_worker[0] != by_worker[1] and own_rng[0] == own_rng[1]
assert {d[2] for d in draws} == {1}
# --8<-- [end:numpy-seed]
