"""Errors: what a custom Function's backward returns, and what its ctx
accepts."""

# raises: grad-count RuntimeError
# raises: grad-for-non-tensor RuntimeError
# raises: backward-not-tensor RuntimeError
# raises: save-non-tensor TypeError
# raises: dirty-leaf RuntimeError
# raises: dirty-not-returned RuntimeError
# raises: dirty-non-tensor RuntimeError
# raises: non-differentiable-non-tensor RuntimeError
# warns: dirty-not-input UserWarning

# --8<-- [start:grad-count-fix]
import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, None


x = torch.ones(2, requires_grad=True)
Scale.apply(x, 3.0).sum().backward()
print(x.grad)
assert x.grad.tolist() == [3.0, 3.0]
# --8<-- [end:grad-count-fix]

# --8<-- [start:grad-count]
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, grad


x = torch.ones(2, requires_grad=True)
Double.apply(x).sum().backward()
# --8<-- [end:grad-count]

# --8<-- [start:grad-for-non-tensor]
import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, grad


x = torch.ones(2, requires_grad=True)
Scale.apply(x, 3.0).sum().backward()
# --8<-- [end:grad-for-non-tensor]

# --8<-- [start:backward-not-tensor]
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return [grad * 2]


x = torch.ones(2, requires_grad=True)
Double.apply(x).sum().backward()
# --8<-- [end:backward-not-tensor]

# --8<-- [start:save-non-tensor-fix]
import torch


class Power(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x**n

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * ctx.n * x ** (ctx.n - 1), None


x = torch.full((2,), 3.0, requires_grad=True)
Power.apply(x, 2).sum().backward()
print(x.grad)
assert x.grad.tolist() == [6.0, 6.0]
# --8<-- [end:save-non-tensor-fix]

# --8<-- [start:save-non-tensor]
import torch


class Power(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x, n)
        return x**n

    @staticmethod
    def backward(ctx, grad):
        x, n = ctx.saved_tensors
        return grad * n * x ** (n - 1), None


x = torch.full((2,), 3.0, requires_grad=True)
Power.apply(x, 2)
# --8<-- [end:save-non-tensor]

# --8<-- [start:dirty-fix]
import torch


class DoubleInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.mul_(2)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


w = torch.ones(2, requires_grad=True)
y = DoubleInPlace.apply(w.clone())
y.sum().backward()
print(y, w.grad)
assert w.grad.tolist() == [2.0, 2.0]
# --8<-- [end:dirty-fix]

# --8<-- [start:dirty-leaf]
import torch


class DoubleInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.mul_(2)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


w = torch.ones(2, requires_grad=True)
DoubleInPlace.apply(w)
# --8<-- [end:dirty-leaf]

# --8<-- [start:dirty-not-returned]
import torch


class DoubleInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        x.mul_(2)
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


w = torch.ones(2, requires_grad=True)
DoubleInPlace.apply(w.clone())
# --8<-- [end:dirty-not-returned]

# --8<-- [start:dirty-non-tensor]
import torch


class Tag(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty("x")
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return grad


Tag.apply(torch.ones(2, requires_grad=True))
# --8<-- [end:dirty-non-tensor]

# --8<-- [start:non-differentiable-non-tensor]
import torch


class ArgMax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = int(x.argmax())
        ctx.mark_non_differentiable(idx)
        return x.clone(), idx

    @staticmethod
    def backward(ctx, grad, _):
        return grad


ArgMax.apply(torch.tensor([1.0, 3.0], requires_grad=True))
# --8<-- [end:non-differentiable-non-tensor]

# --8<-- [start:dirty-not-input]
import torch


class Copy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.clone()
        ctx.mark_dirty(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        return grad


y = Copy.apply(torch.ones(2, requires_grad=True))
# --8<-- [end:dirty-not-input]
