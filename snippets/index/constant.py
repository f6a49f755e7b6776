"""Home page: in backward, a detached value is a constant."""

# --8<-- [start:constant]
import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()  # (1)!
z = u * x
z.sum().backward()
print("u      =", u)
print("x.grad =", x.grad)
assert torch.equal(x.grad, u)  # (2)!
# --8<-- [end:constant]
