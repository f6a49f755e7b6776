# raises: backward-nonscalar RuntimeError
# warns: backward-create-graph UserWarning
"""API inventory, torch.Tensor: backward() and the hooks on a tensor."""

# --8<-- [start:backward]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
y.backward(gradient=torch.ones(2), retain_graph=True,
           inputs=[w])  # (1)!
assert w.grad.tolist() == [1.0, 2.0] and x.grad is None
y.sum().backward()  # (2)!
print("w.grad:", w.grad)
print("x.grad:", x.grad)
assert x.grad.tolist() == [3.0, 4.0]
# --8<-- [end:backward]

# --8<-- [start:backward-create-graph]
x.grad = None
(x ** 3).sum().backward(create_graph=True)  # (1)!
assert x.grad.requires_grad
print("x.grad:", x.grad.detach())
print("has grad_fn:", x.grad.grad_fn is not None)
x.grad = None  # (2)!
# --8<-- [end:backward-create-graph]

# --8<-- [start:backward-nonscalar]
z = x * 2
z.backward()
# --8<-- [end:backward-nonscalar]

# --8<-- [start:register-hook]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
handle = h.register_hook(lambda grad: grad * 10)  # (1)!
h.sum().backward()
print("x.grad:", x.grad)
assert x.grad.tolist() == [20.0, 20.0]
handle.remove()  # (2)!
x.grad = None
(x * 2).sum().backward()
assert x.grad.tolist() == [2.0, 2.0]
# --8<-- [end:register-hook]

# --8<-- [start:post-accumulate-hook]
import torch

p = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []


def sgd_in_backward(param):
    seen.append(param.grad.tolist())  # (1)!
    with torch.no_grad():
        param -= 0.5 * param.grad
    param.grad = None  # (2)!


p.register_post_accumulate_grad_hook(sgd_in_backward)
(p * p).sum().backward()
print("p:", p.detach())
print("p.grad:", p.grad)
assert seen == [[2.0, 4.0]] and p.grad is None
assert p.tolist() == [0.0, 0.0]
# --8<-- [end:post-accumulate-hook]
