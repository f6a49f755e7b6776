"""Seed claims comparing detach(), detach_(), no_grad(), .data, clone() and a
custom Function."""

# --8<-- [start:table]
import torch

x = torch.randn(3, requires_grad=True)
y = x * 2
d = y.detach()
print("detach(): new object", d is not y, "| shares storage",
      d.data_ptr() == y.data_ptr())
assert d is not y and d.data_ptr() == y.data_ptr()

y2 = x * 2
same = y2.detach_()  # (1)!
print("detach_(): same object", same is y2, "| y2.grad_fn", y2.grad_fn)
assert same is y2 and y2.grad_fn is None

with torch.no_grad():
    a, b = x * 2, x + 1
print("inside no_grad:", a.requires_grad, b.requires_grad)
assert not a.requires_grad and not b.requires_grad
with torch.no_grad():
    v = x[:1]
print("a view made inside no_grad requires grad:", v.requires_grad)
assert v.requires_grad and v._base is x
print("no_grad results are new tensors:",
      a is not x and a.data_ptr() != x.data_ptr())
assert a is not x and a.data_ptr() != x.data_ptr()
z = x.detach() * 2
assert not z.requires_grad and (x * 2).requires_grad
# --8<-- [end:table]

# --8<-- [start:clone]
big = torch.randn(1000, 1000, requires_grad=True)
detached, cloned = big.detach(), big.clone()
storage = big.untyped_storage()
shared = detached.untyped_storage().data_ptr() == storage.data_ptr()
print("detach shares storage:", shared)
print("clone allocates bytes:", cloned.untyped_storage().nbytes())
assert shared
assert cloned.untyped_storage().nbytes() == 4 * 1000 * 1000
assert cloned.data_ptr() != big.data_ptr()
# --8<-- [end:clone]

# --8<-- [start:custom-function]
class CustomDetach(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return None


x = torch.randn(3, requires_grad=True)
c = CustomDetach.apply(x)
print("requires_grad", c.requires_grad,
      "| grad_fn", type(c.grad_fn).__name__,
      "| shares storage", c.data_ptr() == x.data_ptr())
(c * 2).sum().backward()
print("x.grad after backward through it:", x.grad)
assert (c.requires_grad and c.grad_fn is not None
        and c.data_ptr() != x.data_ptr())
# --8<-- [end:custom-function]

# --8<-- [start:distributed]
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
inp = torch.randn(4, 3)
one_line = model(inp).detach()
two_lines = model(inp)
two_lines = two_lines.detach()
print("identical:", torch.equal(one_line, two_lines), "| both without graph:",
      one_line.grad_fn is None and two_lines.grad_fn is None)
assert torch.equal(one_line, two_lines) and two_lines.grad_fn is None
# --8<-- [end:distributed]

# --8<-- [start:custom-loss]
pred = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
target = torch.tensor([1.0, 1.0, 1.0])


def custom_loss(pred, target):
    mean_value = pred.detach().mean()
    return ((pred - target) ** 2).mean() + mean_value


custom_loss(pred, target).backward()
with_term = pred.grad.clone()
pred.grad = None
((pred - target) ** 2).mean().backward()
print("gradient with the detached term:", with_term)
print("gradient without it:            ", pred.grad)
assert torch.equal(with_term, pred.grad)
# --8<-- [end:custom-loss]
