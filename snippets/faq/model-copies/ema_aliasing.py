"""FAQ: which EMA initialisations and updates copy, and which alias the
student's storage."""

# --8<-- [start:ema-aliasing]
import copy

import torch
from torch import nn

torch.manual_seed(0)
student = nn.Linear(3, 3)
teacher = nn.Linear(3, 3)
for p, src_p in zip(teacher.parameters(), student.parameters()):
    p.data[:] = src_p.data[:]  # (1)!
w = student.weight
print("slice copy: equal", torch.equal(teacher.weight, w),
      "| shared", teacher.weight.data_ptr() == w.data_ptr())
assert torch.equal(teacher.weight, w)
assert teacher.weight.data_ptr() != w.data_ptr()

ema = copy.deepcopy(student)
with torch.no_grad():
    for v in ema.state_dict().values():  # (2)!
        v *= 0.5
print("state_dict() in place: EMA halved",
      torch.equal(ema.weight, 0.5 * w))
assert torch.equal(ema.weight, 0.5 * w)

alias = nn.Linear(3, 3)
for p, src_p in zip(alias.parameters(), student.parameters()):
    p.data = src_p.data  # (3)!
before = w.detach().clone()
with torch.no_grad():
    for p, src_p in zip(alias.parameters(), student.parameters()):
        p.mul_(0.9).add_(src_p, alpha=0.1)  # (4)!
print(".data = ...: shared", alias.weight.data_ptr() == w.data_ptr(),
      "| student changed", not torch.equal(w, before))
assert alias.weight.data_ptr() == w.data_ptr()
assert not torch.equal(w, before)
# --8<-- [end:ema-aliasing]
