# raises: no-graph RuntimeError
# raises: version-error RuntimeError
"""What detach() returns: shared storage, no graph, a shared version
counter."""

# --8<-- [start:share]
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2  # (1)!
d = y.detach()  # (2)!

print("same storage:", d.data_ptr() == y.data_ptr())
print("same object: ", d is y)
assert d.data_ptr() == y.data_ptr() and d is not y

d[0] = 100.0  # (3)!
print("y:", y.detach())
assert y[0].item() == 100.0
# --8<-- [end:share]

# --8<-- [start:flags]
for name, t in [("x", x), ("y", y), ("d", d)]:
    fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    print(f"{name}: grad_fn={fn}")
    print(f"   requires_grad={t.requires_grad}, is_leaf={t.is_leaf}")

assert d.grad_fn is None and not d.requires_grad and d.is_leaf  # (1)!
assert y.grad_fn is not None and y.requires_grad  # (2)!
# --8<-- [end:flags]

# --8<-- [start:no-graph]
z = (x.detach() * 2).mean()
print("z.requires_grad:", z.requires_grad, " z.grad_fn:", z.grad_fn)
assert not z.requires_grad and z.grad_fn is None and x.grad is None
z.backward()
# --8<-- [end:no-graph]

# --8<-- [start:version]
v = torch.zeros(3, requires_grad=True).clone()
a = v.detach()
print("before:", v._version, a._version)
a.add_(1)  # (1)!
print("after a.add_(1):", v._version, a._version)
assert v._version == a._version == 1
v.mul_(3)
print("after v.mul_(3):", v._version, a._version)
assert v._version == a._version == 2
# --8<-- [end:version]

# --8<-- [start:version-error]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.exp()  # (1)!
y.detach().mul_(2)  # (2)!
assert y._version == 1
y.sum().backward()
# --8<-- [end:version-error]

# --8<-- [start:version-hooks]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
correct = x.detach().exp()
keep = torch.autograd.graph.saved_tensors_hooks(
    lambda t: t.detach(), lambda t: t  # (1)!
)
with keep:
    y = x.exp()
y.detach().mul_(2)
y.sum().backward()  # (2)!
print("hook keeps y's memory:")
print("   x.grad =", x.grad)
print("correct:", correct)
assert not torch.allclose(x.grad, correct)  # (3)!
assert torch.allclose(x.grad, 2 * correct)

x.grad = None
copy = torch.autograd.graph.saved_tensors_hooks(
    lambda t: t.clone(), lambda t: t  # (4)!
)
with copy:
    y = x.exp()
y.detach().mul_(2)
y.sum().backward()
print("hook keeps a copy:")
print("   x.grad =", x.grad)
assert torch.allclose(x.grad, correct)
# --8<-- [end:version-hooks]
