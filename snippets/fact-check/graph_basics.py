"""Seed claims about the graph and what detach() returns (seeds 000, 002,
003)."""

# --8<-- [start:dynamic]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.mean()
z.backward()
print("x.grad:", x.grad)
assert torch.equal(x.grad, torch.tensor([1.0, 1.0]))


def forward(v, n):
    for _ in range(n):
        v = v * 2
    return v.sum()


depth = {}
for n in (1, 3):
    fn, count = forward(x, n).grad_fn, 0
    while fn is not None:
        count += 1
        fn = fn.next_functions[0][0] if fn.next_functions else None
    depth[n] = count
print("nodes on the path for n=1 and n=3:", depth)
assert depth[3] == depth[1] + 2
# --8<-- [end:dynamic]

# --8<-- [start:leaves]
c = torch.tensor([1.0, 2.0])
e = c * 3
d = y.detach()
for name, t in [("x", x), ("y", y), ("z", z), ("c * 3", e), ("y.detach()", d)]:
    print(f"{name}: is_leaf={t.is_leaf}, requires_grad={t.requires_grad}")
assert not y.is_leaf and not z.is_leaf
print("z.grad_fn:", type(z.grad_fn).__name__, "-> next:",
      type(z.grad_fn.next_functions[0][0]).__name__)
assert type(z.grad_fn).__name__ == "MeanBackward0"
assert e.is_leaf and d.is_leaf
# --8<-- [end:leaves]

# --8<-- [start:detach]
a = torch.tensor([3.0], requires_grad=True)
b = a.detach()
print("b.requires_grad:", b.requires_grad, "| b.grad_fn:", b.grad_fn)
print("b is a:", b is a)
assert b is not a and not b.requires_grad and b.grad_fn is None
same_storage = b.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()
assert same_storage
assert torch.equal(b, a)
b[0] = 5.0
print(a)
assert a.item() == 5.0 and a.requires_grad
print("shared version counter:", a._version, b._version)
assert a._version == b._version == 1
y2 = a * 2
d2 = y2.detach()
print("y2 keeps", type(y2.grad_fn).__name__)
print("d2: grad_fn", d2.grad_fn, "| is a view", d2._is_view())
assert y2.requires_grad and type(y2.grad_fn).__name__ == "MulBackward0"
assert d2.grad_fn is None and not d2._is_view() and d2._base is None
# --8<-- [end:detach]

# --8<-- [start:seed-002]
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.detach()
print(x.requires_grad, y.requires_grad)
assert x.requires_grad and not y.requires_grad
assert y.data_ptr() == x.data_ptr()
y.add_(0)
print("new object:", y is not x,
      " shares storage:", y.data_ptr() == x.data_ptr(),
      " x._version after y.add_(0):", x._version)
assert y is not x and x._version == 1
# --8<-- [end:seed-002]
