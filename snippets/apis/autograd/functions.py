# raises: save-for-backward-error RuntimeError
# raises: once-differentiable RuntimeError
# raises: function-jvp-missing NotImplementedError
"""API inventory, torch.autograd.Function and its ctx."""

# --8<-- [start:function]
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):  # (1)!
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad_out):  # (2)!
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x ** 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)  # (3)!
y.sum().backward()
print("x.grad:", x.grad)
print("node:", type(y.grad_fn).__name__)
assert x.grad.tolist() == [3.0, 12.0]
Function = torch.autograd.Function
assert Function.vjp is Function.backward  # (4)!
# --8<-- [end:function]

# --8<-- [start:save-for-backward]
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)  # (1)!
        return x * x

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return 2 * x * grad_out


x = torch.tensor([3.0], requires_grad=True)
Square.apply(x).backward()
assert x.grad.item() == 6.0
y = Square.apply(x)
x.detach().add_(1)  # (2)!
print("x._version:", x._version)
assert x._version == 1
# --8<-- [end:save-for-backward]

# --8<-- [start:save-for-backward-error]
y.backward()
# --8<-- [end:save-for-backward-error]

# --8<-- [start:mark-dirty]
import torch


class AddOneInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)  # (1)!
        return x

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


h = torch.ones(2, requires_grad=True) * 2
before = h._version
out = AddOneInPlace.apply(h)
assert out is h and h._version > before  # (2)!
out.sum().backward()
print("h:", h.detach())
print("node:", type(h.grad_fn).__name__)


class Undeclared(AddOneInPlace):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x


h = torch.ones(2, requires_grad=True) * 2
node = h.grad_fn
out = Undeclared.apply(h)
assert out is not h and h.grad_fn is node  # (3)!
# --8<-- [end:mark-dirty]

# --8<-- [start:mark-non-differentiable]
import torch


class SortWithIndex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, index = x.sort()
        ctx.mark_non_differentiable(index)  # (1)!
        ctx.save_for_backward(index)
        return values, index

    @staticmethod
    def backward(ctx, grad_values, grad_index):
        assert not grad_index.any()  # (2)!
        (index,) = ctx.saved_tensors
        return torch.zeros_like(grad_values).scatter(0, index, grad_values)


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, index = SortWithIndex.apply(x)
assert values.requires_grad and not index.requires_grad
(values * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("x.grad:", x.grad)
print("index:", index.tolist())
assert x.grad.tolist() == [3.0, 1.0, 2.0]
# --8<-- [end:mark-non-differentiable]

# --8<-- [start:set-materialize-grads]
import torch


class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)  # (1)!
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g_a, g_b):
        print("g_b is None:", g_b is None)
        assert g_b is None
        total = torch.zeros(2)
        if g_a is not None:
            total = total + 2 * g_a
        if g_b is not None:
            total = total + 3 * g_b
        return total


x = torch.ones(2, requires_grad=True)
a, b = Split.apply(x)
a.sum().backward()  # (2)!
assert x.grad.tolist() == [2.0, 2.0]
# --8<-- [end:set-materialize-grads]

# --8<-- [start:needs-input-grad]
import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        ctx.save_for_backward(x, s)
        return x * s

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.saved_tensors
        print("needs_input_grad:", ctx.needs_input_grad)  # (1)!
        gx = grad_out * s if ctx.needs_input_grad[0] else None
        gs = (grad_out * x).sum() if ctx.needs_input_grad[1] else None
        return gx, gs


x = torch.ones(2, requires_grad=True)
s = torch.tensor(3.0)
Scale.apply(x, s).sum().backward()
assert x.grad.tolist() == [3.0, 3.0] and s.grad is None
# --8<-- [end:needs-input-grad]

# --8<-- [start:once-differentiable]
import torch
from torch.autograd.function import once_differentiable


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    @once_differentiable  # (1)!
    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        return grad_out * y


x = torch.zeros(1, requires_grad=True)
y = Exp.apply(x)
(g,) = torch.autograd.grad(y * y, x, create_graph=True)
print("first derivative:", g.item())
assert g.item() == 2.0
g.backward()  # (2)!
# --8<-- [end:once-differentiable]

# --8<-- [start:function-jvp]
import torch
import torch.autograd.forward_ad as fwAD


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * 2

    @staticmethod
    def jvp(ctx, tangent):  # (1)!
        return tangent * 2


with fwAD.dual_level():
    dual = fwAD.make_dual(torch.ones(2), torch.tensor([1.0, 5.0]))
    out = Double.apply(dual)
    print("tangent:", fwAD.unpack_dual(out).tangent)
    assert fwAD.unpack_dual(out).tangent.tolist() == [2.0, 10.0]
# --8<-- [end:function-jvp]

# --8<-- [start:function-jvp-missing]
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * 2


with fwAD.dual_level():
    NoJvp.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)))
# --8<-- [end:function-jvp-missing]
