"""What leaves the version counter alone, and the two sanctioned ways to
write into a tensor that backward saved."""

# --8<-- [start:no-bump]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
y.detach().resize_as_(torch.zeros(3))
y.detach()
y.requires_grad_()
y.data = torch.zeros(3)
print("y._version:", y._version)
assert y._version == 0  # (1)!

z = x * 2
z.detach_()  # (2)!
print("z._version:", z._version, "| z.requires_grad:", z.requires_grad)
assert z._version == 0 and z.grad_fn is None

y.detach().add_(1)
z.add_(1)
print("after add_:", y._version, z._version)
assert y._version == 1 and z._version == 1  # (3)!
# --8<-- [end:no-bump]

# --8<-- [start:allow-mutation]
from torch.autograd.graph import allow_mutation_on_saved_tensors

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
with allow_mutation_on_saved_tensors():  # (1)!
    y = x.exp()
    y.detach().mul_(2)  # (2)!
    y.sum().backward()
print("x.grad:", x.grad)
print("true:  ", x.detach().exp())
print("y:     ", y.detach())
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
assert torch.allclose(x.grad, 2 * x.detach().exp())
# --8<-- [end:unsafe]
