"""FAQ: custom autograd.Function: grad mode inside forward, what to save,
returning an input as-is."""

# raises: function-save-non-tensor TypeError
# raises: function-return-input RuntimeError

# --8<-- [start:function-forward-no-grad]
import torch


class InnerFit(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print("grad enabled in forward:", torch.is_grad_enabled())  # (1)!
        assert not torch.is_grad_enabled()
        y = torch.zeros_like(x, requires_grad=True)
        with torch.enable_grad():  # (2)!
            for _ in range(50):
                loss = ((x * y - 1) ** 2).sum()
                (g,) = torch.autograd.grad(loss, y)
                with torch.no_grad():
                    y -= 0.1 * g
        return y.detach()  # (3)!

    @staticmethod
    def backward(ctx, grad_out):
        return None


x = torch.full((3,), 2.0)
y = InnerFit.apply(x)
print("inner optimisation converged to 1/x:", y.tolist())
assert torch.allclose(y, 1 / x, atol=1e-4)
# --8<-- [end:function-forward-no-grad]

# --8<-- [start:function-save-non-tensor]
import torch


class ScaleFixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, shape):
        ctx.save_for_backward(x)  # (1)!
        ctx.shape = shape
        return x * 2

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        assert ctx.shape == (1, 2)
        return g * 2, None


x = torch.randn(2, requires_grad=True)
ScaleFixed.apply(x, (1, 2)).sum().backward()
print("x.grad:", x.grad.tolist())
assert torch.equal(x.grad, torch.full((2,), 2.0))


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, shape):
        ctx.save_for_backward(x, shape)  # (2)!
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2, None


Scale.apply(x, (1, 2))
# --8<-- [end:function-save-non-tensor]

# --8<-- [start:function-return-input]
import torch


class Reverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x  # (1)!

    @staticmethod
    def backward(ctx, g):
        calls.append("backward")
        return -g


calls = []
x = torch.ones(2, requires_grad=True)
out = Reverse.apply(x)
print("out is x:", out is x, "| out is a view of x:", out._base is x)
(out * 3).sum().backward()
print("backward called:", calls)  # (2)!
print("x.grad:", x.grad.tolist())
assert calls == ["backward"] and torch.equal(x.grad, torch.full((2,), -3.0))

Reverse.apply(x * 1).add_(1)  # (3)!
# --8<-- [end:function-return-input]

# --8<-- [start:autograd-grad-in-backward]
import torch


class Tanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.tanh(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        print("grad enabled in backward:", torch.is_grad_enabled())  # (1)!
        with torch.enable_grad():  # (2)!
            x_ = x.detach().requires_grad_()
            y = torch.tanh(x_)
            (g,) = torch.autograd.grad(y, x_, grad_out)
        return g


x = torch.randn(3, requires_grad=True)
Tanh.apply(x).sum().backward()
print("matches 1 - tanh(x)**2:",
      torch.allclose(x.grad, 1 - torch.tanh(x.detach()) ** 2))
assert torch.allclose(x.grad, 1 - torch.tanh(x.detach()) ** 2)
# --8<-- [end:autograd-grad-in-backward]
