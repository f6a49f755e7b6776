"""Errors: writing a custom autograd.Function; checking it with gradcheck."""

# raises: no-forward NotImplementedError
# raises: no-backward NotImplementedError
# warns: instantiated DeprecationWarning
# raises: backward-and-vjp RuntimeError
# raises: gradcheck-mismatch RuntimeError
# raises: gradcheck-no-input ValueError
# warns: gradcheck-float32 UserWarning

# --8<-- [start:style-fix]
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


x = torch.ones(2, requires_grad=True)
Double.apply(x).sum().backward()
print(x.grad)
assert x.grad.tolist() == [2.0, 2.0]
# --8<-- [end:style-fix]

# --8<-- [start:no-forward]
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad):
        return grad * 2


Double.apply(torch.ones(2, requires_grad=True))
# --8<-- [end:no-forward]

# --8<-- [start:no-backward]
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


x = torch.ones(2, requires_grad=True)
Double.apply(x).sum().backward()
# --8<-- [end:no-backward]

# --8<-- [start:instantiated]
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


Double()
# --8<-- [end:instantiated]

# --8<-- [start:backward-and-vjp]
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2

    @staticmethod
    def vjp(ctx, grad):
        return grad * 2


x = torch.ones(2, requires_grad=True)
Double.apply(x).sum().backward()
# --8<-- [end:backward-and-vjp]

# --8<-- [start:gradcheck-fix]
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x**2


x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
ok = torch.autograd.gradcheck(Cube.apply, (x,))
print("gradcheck:", ok)
assert ok
# --8<-- [end:gradcheck-fix]

# --8<-- [start:gradcheck-mismatch]
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x


x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(Cube.apply, (x,))
# --8<-- [end:gradcheck-mismatch]

# --8<-- [start:gradcheck-no-input]
import torch

x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
torch.autograd.gradcheck(torch.sin, (x,))
# --8<-- [end:gradcheck-no-input]

# --8<-- [start:gradcheck-float32]
import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
torch.autograd.gradcheck(torch.sin, (x,), raise_exception=False)
# --8<-- [end:gradcheck-float32]
