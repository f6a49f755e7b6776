"""What leaves the version counter alone, and the two sanctioned ways to
write into a tensor that backward saved."""

# --8<-- [start:no-bump]
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
z = x * 2  # a second non-leaf, with a counter of its own
steps = [  # (the tensor whose counter is watched, the step)
    (y, "d.resize_as_(same size)", lambda: y.detach().resize_as_(y)),
    (y, "y.detach()", lambda: y.detach()),
    (z, "z.detach_()", lambda: z.detach_()),
    (y, "y.requires_grad_()", lambda: y.requires_grad_()),
    (y, "y.data = tensor", lambda: setattr(y, "data", torch.zeros(3))),
]
for t, name, step in steps:
    before = t._version
    step()
    print(f"{name:24} {name[0]}._version +{t._version - before}")
    assert t._version == before  # (1)!
assert not z.requires_grad and z.grad_fn is None  # z.detach_() did detach
y.detach().add_(1)
z.add_(1)
assert y._version == 1 and z._version == 1  # real writes do bump them
# --8<-- [end:no-bump]

# --8<-- [start:allow-mutation]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
with allow_mutation_on_saved_tensors():  # (1)!
    y = x.exp()
    y.detach().mul_(2)  # (2)!
    y.sum().backward()
print("gradient:     ", x.grad)
print("true gradient:", x.detach().exp())
print("y after the write:", y.detach())
assert torch.allclose(x.grad, x.detach().exp())  # (3)!
assert torch.allclose(y.detach(), 2 * x.detach().exp())
# --8<-- [end:allow-mutation]

# --8<-- [start:unsafe]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()
with torch.autograd._unsafe_preserve_version_counter(y):  # (1)!
    y.detach().mul_(2)
print("y._version after the write:", y._version)
y.sum().backward()  # (2)!
print("gradient:     ", x.grad)
print("true gradient:", x.detach().exp())
assert y._version == 0
assert torch.allclose(x.grad, 2 * x.detach().exp())  # silently wrong
# --8<-- [end:unsafe]
