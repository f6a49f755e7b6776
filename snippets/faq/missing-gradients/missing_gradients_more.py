"""FAQ: the gradient of max (a subgradient), and how to tell which
functions are differentiable."""

# raises: which-functions-differentiable NotImplementedError

# --8<-- [start:max-grad-nonzero]
import torch

x = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
x.max().backward()  # (1)!
print("max(), one maximum:", x.grad.tolist())
assert x.grad.tolist() == [0.0, 1.0, 0.0]

t = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
t.max().backward()  # (2)!
print("max(), tied:", t.grad.tolist())
assert t.grad.tolist() == [0.0, 0.5, 0.5]

t.grad = None
values, index = t.max(dim=0)
values.backward()  # (3)!
print("max(dim=0), tied:", t.grad.tolist())
print("   index", index.item())
assert t.grad.sum() == 1.0 and t.grad[index] == 1.0
# --8<-- [end:max-grad-nonzero]

# --8<-- [start:which-functions-differentiable]
import torch

x = torch.tensor([0.4, 1.6, 2.2], requires_grad=True)
torch.round(x).sum().backward()  # (1)!
print("round:", x.grad.tolist())
assert x.grad.tolist() == [0.0, 0.0, 0.0]

x.grad = None
torch.floor(x).sum().backward()
print("floor:", x.grad.tolist())
assert x.grad.tolist() == [0.0, 0.0, 0.0]

x.grad = None
x.clamp(0.5, 2.0).sum().backward()
print("clamp(0.5, 2):", x.grad.tolist())
assert x.grad.tolist() == [0.0, 1.0, 0.0]

i = x.argmax()  # (2)!
print("argmax:", i.dtype, "requires_grad =", i.requires_grad)
assert i.dtype == torch.int64 and not i.requires_grad
assert torch.autograd.gradcheck(
    torch.round, x.detach().double().requires_grad_()
)  # (3)!

q = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
torch.special.zeta(torch.tensor(2.0), q).sum().backward()  # (4)!
print("zeta, d/dq:", [round(v, 4) for v in q.grad.tolist()])
assert (q.grad < 0).all()

s = torch.tensor(2.0, requires_grad=True)
z = torch.special.zeta(s, q.detach())
assert z.requires_grad
z.sum().backward()  # (5)!
# --8<-- [end:which-functions-differentiable]
