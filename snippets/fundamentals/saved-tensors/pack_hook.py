"""A pack hook that returns the tensor it is given keeps the graph alive
(a reference cycle through C++ that gc cannot break); one that stores
t.detach() does not."""

# --8<-- [start:keep-alive]
import gc

import torch
from torch.autograd.graph import saved_tensors_hooks


def output_survives(pack):
    x = torch.ones(1000, requires_grad=True)
    with saved_tensors_hooks(pack, lambda packed: packed):
        y = x.exp()  # (1)!
    ref = torch._C._WeakTensorRef(y)
    del y
    gc.collect()
    return not ref.expired()


keeps = output_survives(lambda t: t)  # (2)!
detached = output_survives(lambda t: t.detach())  # (3)!
print("pack returns t:          y alive after del + gc:", keeps)
print("pack returns t.detach(): y alive after del + gc:", detached)
assert keeps and not detached
# --8<-- [end:keep-alive]
