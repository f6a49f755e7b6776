"""Seed 000's first example: the graph autograd records for (x * 2).mean()."""

# --8<-- [start:backward]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.mean()
z.backward()  # (1)!

print("x.grad:", x.grad)
assert torch.equal(x.grad, torch.tensor([1.0, 1.0]))  # (2)!
# --8<-- [end:backward]

# --8<-- [start:grad-fn]
print("z.grad_fn:", type(z.grad_fn).__name__)
print("y.grad_fn:", type(y.grad_fn).__name__)
print("x.grad_fn:", x.grad_fn)  # (1)!

(edge,) = z.grad_fn.next_functions  # (2)!
node, input_nr = edge
print("z.grad_fn.next_functions ->", type(node).__name__, input_nr)
assert node is y.grad_fn

mul_next = y.grad_fn.next_functions  # (3)!
print(
    "y.grad_fn.next_functions ->",
    [(type(n).__name__ if n else None, i) for n, i in mul_next],
)
acc = mul_next[0][0]
assert type(acc).__name__ == "AccumulateGrad" and acc.variable is x  # (4)!
assert mul_next[1][0] is None
# --8<-- [end:grad-fn]

# --8<-- [start:walk]
def walk(fn, depth=0):
    """Print the backward graph below fn, one node per line."""
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        if nxt is not None:
            walk(nxt, depth + 1)


w = torch.tensor([0.5, -1.0], requires_grad=True)
loss = (x * w).sum() + w.pow(2).sum()
walk(loss.grad_fn)  # (1)!
# --8<-- [end:walk]

# --8<-- [start:shared-leaf]
add = loss.grad_fn
mul = add.next_functions[0][0].next_functions[0][0]
pow_ = add.next_functions[1][0].next_functions[0][0]
w_via_mul = mul.next_functions[1][0]
w_via_pow = pow_.next_functions[0][0]
print("w's node via", type(mul).__name__)
print("        and via", type(pow_).__name__)
print("one node for w:", w_via_mul is w_via_pow)
assert w_via_mul is w_via_pow and w_via_mul.variable is w  # (1)!

received = []
w_via_mul.register_prehook(
    lambda grads: received.append(grads[0].clone())
)  # (2)!
x.grad = None
loss.backward()  # (3)!
(from_mul,) = torch.autograd.grad((x * w).sum(), w)  # x
(from_pow,) = torch.autograd.grad(w.pow(2).sum(), w)  # 2 * w
print("AccumulateGrad ran", len(received), "time, with", received[0])
print("w.grad:", w.grad)
print("from (x * w).sum():", from_mul)
print("from w.pow(2).sum():", from_pow)
assert len(received) == 1 and torch.equal(received[0], w.grad)
assert torch.equal(w.grad, from_mul + from_pow)  # (4)!
assert torch.equal(w.grad, (x + 2 * w).detach())
# --8<-- [end:shared-leaf]


# --8<-- [start:dynamic]
def f(t, n_steps):
    for _ in range(n_steps):  # (1)!
        t = t * 2 if t.sum() > 0 else t.exp()
    return t.sum()


a = torch.tensor([1.0, -3.0], requires_grad=True)
names = []
for n in (1, 3):
    out = f(a, n)
    fn, chain = out.grad_fn, []
    while fn is not None and type(fn).__name__ != "AccumulateGrad":
        chain.append(type(fn).__name__)
        fn = fn.next_functions[0][0]
    print(f"n_steps={n}:", " <- ".join(chain))
    names.append(chain)
assert names[0] != names[1]  # (2)!
assert names[1] == [
    "SumBackward0",
    "MulBackward0",
    "MulBackward0",
    "ExpBackward0",
]
# --8<-- [end:dynamic]
