"""What detach() does: in backward, a detached value is a constant."""

# --8<-- [start:constant]
import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()  # (1)!
(u * x).sum().backward()
print("d(u * x)/dx =", x.grad)
assert torch.equal(x.grad, u)  # (2)!

x.grad = None
(y * x).sum().backward()  # (3)!
print("d(y * x)/dx =", x.grad)
assert torch.equal(x.grad, 3 * u)
# --8<-- [end:constant]
