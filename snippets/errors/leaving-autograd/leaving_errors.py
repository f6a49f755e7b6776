"""Errors: a tensor leaving autograd (NumPy, DLPack, other processes)."""

# raises: numpy-conj RuntimeError
# raises: numpy-neg RuntimeError
# raises: dlpack-grad BufferError
# raises: dlpack-conj BufferError
# raises: pickle-non-leaf RuntimeError
# warns: numpy-not-writable UserWarning

# --8<-- [start:numpy-bits-fix]
import torch

z = torch.tensor([1 + 2j, 3 - 1j])
a = z.conj().resolve_conj().numpy()
b = z.conj().imag.resolve_neg().numpy()
print(a, b)
assert a.tolist() == [1 - 2j, 3 + 1j] and b.tolist() == [-2.0, 1.0]
# --8<-- [end:numpy-bits-fix]

# --8<-- [start:numpy-conj]
import torch

z = torch.tensor([1 + 2j, 3 - 1j])
z.conj().numpy()
# --8<-- [end:numpy-conj]

# --8<-- [start:numpy-neg]
import torch

z = torch.tensor([1 + 2j, 3 - 1j])
z.conj().imag.numpy()
# --8<-- [end:numpy-neg]

# --8<-- [start:pickle-non-leaf-fix]
import pickle
from multiprocessing.reduction import ForkingPickler

import torch
import torch.multiprocessing

w = torch.ones(3, requires_grad=True)
y = w * 2
payload = ForkingPickler.dumps(y.detach())
back = pickle.loads(payload)
print(back, back.requires_grad)
assert torch.equal(back, y.detach())
# --8<-- [end:pickle-non-leaf-fix]

# --8<-- [start:pickle-non-leaf]
from multiprocessing.reduction import ForkingPickler

import torch
import torch.multiprocessing

w = torch.ones(3, requires_grad=True)
y = w * 2
ForkingPickler.dumps(y)
# --8<-- [end:pickle-non-leaf]

# --8<-- [start:numpy-not-writable-fix]
import numpy as np
import torch

a = np.arange(3.0)
a.setflags(write=False)
t = torch.from_numpy(a.copy())
t[0] = 10.0
print(a, t)
assert a[0] == 0.0 and t[0].item() == 10.0
# --8<-- [end:numpy-not-writable-fix]

# --8<-- [start:numpy-not-writable]
import numpy as np
import torch

a = np.arange(3.0)
a.setflags(write=False)
t = torch.from_numpy(a)
# --8<-- [end:numpy-not-writable]

# --8<-- [start:dlpack-grad-fix]
import torch
from torch.utils.dlpack import from_dlpack

w = torch.ones(3, requires_grad=True)
y = w * 2
out = from_dlpack(y.detach())
print(out, out.requires_grad)
assert out.data_ptr() == y.data_ptr() and not out.requires_grad
# --8<-- [end:dlpack-grad-fix]

# --8<-- [start:dlpack-conj]
import torch

z = torch.tensor([1 + 2j, 3 - 1j])
z.conj().__dlpack__()
# --8<-- [end:dlpack-conj]

# --8<-- [start:dlpack-grad]
import torch

w = torch.ones(3, requires_grad=True)
y = w * 2
y.__dlpack__()
# --8<-- [end:dlpack-grad]
