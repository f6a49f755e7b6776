"""Seed 000's CustomDetach, run next to the real detach()."""

# --8<-- [start:seed]
import torch


class CustomDetach(torch.autograd.Function):  # (1)!
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return None


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
c = CustomDetach.apply(y)
d = y.detach()
for name, t in (("CustomDetach", c), ("detach()", d)):
    fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    shared = t.data_ptr() == y.data_ptr()
    print(f"{name}: grad_fn={fn}")
    print(f"   requires_grad={t.requires_grad}, shares data={shared}")
assert c.requires_grad and c.grad_fn is not None  # (2)!
assert c.data_ptr() != y.data_ptr() and d.data_ptr() == y.data_ptr()  # (3)!
# --8<-- [end:seed]

# --8<-- [start:gradient]
ran = []
c.grad_fn.register_prehook(lambda grads: ran.append(type(c.grad_fn).__name__))
(c * y).sum().backward()
print("via CustomDetach:", x.grad)
print("nodes run:", ran)  # (1)!
assert ran == ["CustomDetachBackward"]
via_custom = x.grad
x.grad = None
y = x * 2
(y.detach() * y).sum().backward()
print("via detach():", x.grad)
assert torch.equal(x.grad, via_custom)  # (2)!
# --8<-- [end:gradient]

# --8<-- [start:version]
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
c = CustomDetach.apply(y)
with torch.no_grad():
    c.mul_(2)  # (1)!
y.sum().backward()
correct = torch.allclose(x.grad, x.detach().exp())
print("y._version after writing c:", y._version, " gradient correct:", correct)
assert y._version == 0 and torch.allclose(x.grad, x.detach().exp())
# --8<-- [end:version]

# --8<-- [start:non-differentiable]
class StopGradient(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x.clone()
        ctx.mark_non_differentiable(out)  # (1)!
        return out

    @staticmethod
    def backward(ctx, grad_output):
        return None


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = StopGradient.apply(x * 2)
print("requires_grad:", s.requires_grad, " grad_fn:", s.grad_fn,
      " is_leaf:", s.is_leaf)
assert not s.requires_grad and s.grad_fn is None and s.is_leaf  # (2)!
# --8<-- [end:non-differentiable]
