# raises: detach RuntimeError
"""The same in-place write through .detach() and through .data."""

# --8<-- [start:detach]
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()
y.detach().mul_(2)  # (1)!
y.sum().backward()
# --8<-- [end:detach]

# --8<-- [start:data]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()
y.data.mul_(2)  # (1)!
y.sum().backward()  # (2)!
print("x.grad: ", x.grad)
print("correct:", x.detach().exp())
assert y._version == 0  # (3)!
assert torch.allclose(x.grad, 2 * x.detach().exp())
# --8<-- [end:data]
