# warns: counter-examples UserWarning
# raises: propagate RuntimeError
# raises: propagate-attribute RuntimeError
# warns: grad-on-leaves UserWarning
"""What a leaf is: a tensor with no grad_fn. Seed 000 says "a tensor the user
created"."""

# --8<-- [start:definition]
import torch


def describe(name, t):
    fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    print(f"{name}: is_leaf={t.is_leaf}, grad_fn={fn}")
    assert t.is_leaf == (t.grad_fn is None)  # (1)!


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
describe("x", x)
describe("y = x*2", y)
# --8<-- [end:definition]

# --8<-- [start:counter-examples]
c = torch.tensor([1.0, 2.0]) * 2  # (1)!
d = y.detach()  # (2)!
with torch.no_grad():
    n = x * 2  # (3)!
w = torch.tensor([1.0, 2.0], requires_grad=True).double()  # (4)!
describe("c", c)
describe("d", d)
describe("n", n)
describe("w", w)
assert c.is_leaf and d.is_leaf and n.is_leaf
assert not w.is_leaf
w.sum().backward()
w_grad = w.grad  # (5)!
print("w.grad after backward:", w_grad)
assert w_grad is None
# --8<-- [end:counter-examples]

# --8<-- [start:propagate]
a = torch.ones(2)
b = torch.ones(2, requires_grad=True)
print("a + a requires_grad:", (a + a).requires_grad)
print("a + b requires_grad:", (a + b).requires_grad)  # (1)!
print("b > 0 requires_grad:", (b > 0).requires_grad)  # (2)!
assert not (a + a).requires_grad and (a + b).requires_grad
assert not (b > 0).requires_grad and (b > 0).grad_fn is None
print("b.argmax() requires_grad:", b.argmax().requires_grad)
print("b.round() requires_grad:", b.round().requires_grad,
      "| dtype", b.round().dtype)
assert not b.argmax().requires_grad and b.round().grad_fn is not None
assert torch.equal(torch.autograd.grad(b.round().sum(), b)[0], torch.zeros(2))

y.requires_grad_(True)  # (3)!
assert y.requires_grad and not y.is_leaf
y.requires_grad_(False)  # (4)!
# --8<-- [end:propagate]

# --8<-- [start:propagate-attribute]
y.requires_grad = True  # (1)!
# --8<-- [end:propagate-attribute]

# --8<-- [start:grad-on-leaves]
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()  # (1)!
h = y * 3
z = h.sum()
z.backward()
h_grad = h.grad  # (2)!
print("x.grad:", x.grad)
print("y.grad:", y.grad)
print("h.grad:", h_grad)
assert torch.equal(x.grad, torch.tensor([6.0, 6.0]))
assert torch.equal(y.grad, torch.tensor([3.0, 3.0]))
assert h_grad is None
# --8<-- [end:grad-on-leaves]
