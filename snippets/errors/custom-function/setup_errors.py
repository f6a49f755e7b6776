"""Errors: a custom Function that saves an input it returns as-is, marks a
view dirty while returning two outputs, reads saved_tensors twice although it
clears them on access, or marks a new tensor dirty under forward AD."""

# raises: returned-as-is RuntimeError
# raises: dirty-view-two-outputs RuntimeError
# raises: saved-cleared RuntimeError
# raises: dirty-forward-ad RuntimeError

# --8<-- [start:returned-as-is-fix]
import torch


class Identity(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.view_as(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        return grad


x = torch.ones(2, requires_grad=True)
y = Identity.apply(x)
y.sum().backward()
print(x.grad)
assert x.grad.tolist() == [1.0, 1.0]
# --8<-- [end:returned-as-is-fix]

# --8<-- [start:returned-as-is]
import torch


class Identity(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        return grad


x = torch.ones(2, requires_grad=True)
Identity.apply(x * 1)
# --8<-- [end:returned-as-is]

# --8<-- [start:dirty-view-two-outputs-fix]
import torch


class DoubleAndCopy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x, x.detach().clone()

    @staticmethod
    def backward(ctx, grad, grad_copy):
        return grad * 2


base = torch.ones(4, requires_grad=True)
part = (base * 1)[:2].clone()
out, copy = DoubleAndCopy.apply(part)
out.sum().backward()
print(base.grad)
assert base.grad.tolist() == [2.0, 2.0, 0.0, 0.0]
# --8<-- [end:dirty-view-two-outputs-fix]

# --8<-- [start:dirty-view-two-outputs]
import torch


class DoubleAndCopy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x, x.detach().clone()

    @staticmethod
    def backward(ctx, grad, grad_copy):
        return grad * 2


base = torch.ones(4, requires_grad=True)
DoubleAndCopy.apply((base * 1)[:2])
# --8<-- [end:dirty-view-two-outputs]

# --8<-- [start:saved-cleared-fix]
import torch


class Square(torch.autograd.Function):
    clear_saved_tensors_on_access = True

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x


x = torch.full((2,), 3.0, requires_grad=True)
Square.apply(x).sum().backward()
print(x.grad)
assert x.grad.tolist() == [6.0, 6.0]
# --8<-- [end:saved-cleared-fix]

# --8<-- [start:saved-cleared]
import torch


class Square(torch.autograd.Function):
    clear_saved_tensors_on_access = True

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        (again,) = ctx.saved_tensors
        return grad * 2 * x


x = torch.full((2,), 3.0, requires_grad=True)
Square.apply(x).sum().backward()
# --8<-- [end:saved-cleared]

# --8<-- [start:dirty-forward-ad]
import torch
import torch.autograd.forward_ad as fwAD


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.mark_dirty(y)
        return y

    @staticmethod
    def jvp(ctx, t):
        return t * 2


with fwAD.dual_level():
    x = fwAD.make_dual(torch.ones(2), torch.ones(2))
    Double.apply(x)
# --8<-- [end:dirty-forward-ad]
