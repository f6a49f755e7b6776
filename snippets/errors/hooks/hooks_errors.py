"""Errors: tensor hooks, module backward hooks and saved-tensor hooks."""

# raises: post-acc-non-leaf RuntimeError
# raises: module-hook-mix RuntimeError
# warns: non-full-hook FutureWarning
# warns: non-full-hook-two-nodes FutureWarning
# warns: non-full-hook-non-tensor FutureWarning
# warns: full-hook-no-input-grad UserWarning
# raises: saved-hooks-freed RuntimeError
# raises: saved-hooks-twice RuntimeError
# raises: pack-hook-inplace RuntimeError
# raises: hook-grad-count RuntimeError
# warns: hook-output-dict UserWarning

# --8<-- [start:post-acc-non-leaf-fix]
import torch

w = torch.ones(2, requires_grad=True)
seen = []
w.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
(w * 3).sum().backward()
print(seen)
assert seen == [[3.0, 3.0]]
# --8<-- [end:post-acc-non-leaf-fix]

# --8<-- [start:post-acc-non-leaf]
import torch

w = torch.ones(2, requires_grad=True)
y = w * 3
y.register_post_accumulate_grad_hook(lambda p: None)
# --8<-- [end:post-acc-non-leaf]

# --8<-- [start:module-hook-fix]
import torch

lin = torch.nn.Linear(2, 2)
grads = []
lin.register_full_backward_hook(
    lambda m, gin, gout: grads.append(gout[0].shape)
)
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
print(grads)
assert grads == [torch.Size([1, 2])]
# --8<-- [end:module-hook-fix]

# --8<-- [start:module-hook-mix]
import torch

lin = torch.nn.Linear(2, 2)
lin.register_backward_hook(lambda m, gin, gout: None)
lin.register_full_backward_hook(lambda m, gin, gout: None)
# --8<-- [end:module-hook-mix]

# --8<-- [start:non-full-hook]
import torch


class TwoOps(torch.nn.Module):
    def forward(self, x):
        return (x * 2).sin()


m = TwoOps()
m.register_backward_hook(lambda mod, gin, gout: None)
m(torch.ones(2, requires_grad=True)).sum().backward()
# --8<-- [end:non-full-hook]

# --8<-- [start:full-hook-no-input-grad]
import torch

lin = torch.nn.Linear(2, 2)
calls = []
lin.register_full_backward_hook(lambda m, gin, gout: calls.append(gin))
lin(torch.ones(1, 2)).sum().backward()
print(calls)
assert calls == [(None,)]
# --8<-- [end:full-hook-no-input-grad]

# --8<-- [start:saved-hooks-fix]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 1, lambda t: t)
y.sum().backward()
print(x.grad)
assert x.grad.tolist() == [2.0, 4.0]
# --8<-- [end:saved-hooks-fix]

# --8<-- [start:saved-hooks-freed]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.pow(2)
y.sum().backward()
y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
# --8<-- [end:saved-hooks-freed]

# --8<-- [start:saved-hooks-twice]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.pow(2)
saved = y.grad_fn._raw_saved_self
saved.register_hooks(lambda t: t, lambda t: t)
saved.register_hooks(lambda t: t, lambda t: t)
# --8<-- [end:saved-hooks-twice]

# --8<-- [start:pack-hook-fix]
import torch


def pack(t):
    return t.clone().mul_(1)


x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = x.pow(2)
y.sum().backward()
print(x.grad)
assert x.grad.tolist() == [2.0, 4.0]
# --8<-- [end:pack-hook-fix]

# --8<-- [start:pack-hook-inplace]
import torch


def pack(t):
    return t.mul_(1)


x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = x * 1
    z = y.pow(2)
# --8<-- [end:pack-hook-inplace]

# --8<-- [start:full-hook-no-input-grad-fix]
import torch

lin = torch.nn.Linear(2, 2)
calls = []
lin.register_full_backward_hook(lambda m, gin, gout: calls.append(gin))
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
print([g.shape for g in calls[0]])
assert calls[0][0] is not None
# --8<-- [end:full-hook-no-input-grad-fix]

# --8<-- [start:hook-grad-count-fix]
import torch

lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 0.5,))
x = torch.ones(1, 2, requires_grad=True)
lin(x).sum().backward()
print(torch.allclose(x.grad, lin.weight.sum(0, keepdim=True) * 0.5))
assert torch.allclose(x.grad, lin.weight.sum(0, keepdim=True) * 0.5)
# --8<-- [end:hook-grad-count-fix]

# --8<-- [start:hook-grad-count]
import torch

lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gin, gout: (gin[0], gin[0]))
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
# --8<-- [end:hook-grad-count]

# --8<-- [start:hook-output-dict-fix]
import torch


class TwoHeads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        y = self.lin(x)
        return y[:, 0], y[:, 1]


m = TwoHeads()
seen = []
m.register_full_backward_hook(lambda mod, gin, gout: seen.append(len(gout)))
a, b = m(torch.ones(1, 2, requires_grad=True))
(a + b).sum().backward()
print(seen)
assert seen == [2]
# --8<-- [end:hook-output-dict-fix]

# --8<-- [start:hook-output-dict]
import torch


class TwoHeads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        y = self.lin(x)
        return {"a": y[:, 0], "b": y[:, 1]}


m = TwoHeads()
seen = []
m.register_full_backward_hook(lambda mod, gin, gout: seen.append(len(gout)))
out = m(torch.ones(1, 2, requires_grad=True))
(out["a"] + out["b"]).sum().backward()
print(seen)
assert seen == []
# --8<-- [end:hook-output-dict]

# --8<-- [start:non-full-hook-two-nodes]
import torch


class TwoOutputs(torch.nn.Module):
    def forward(self, x):
        return x * 2, x + 1


m = TwoOutputs()
m.register_backward_hook(lambda mod, gin, gout: None)
a, b = m(torch.ones(2, requires_grad=True))
(a.sum() + b.sum()).backward()
# --8<-- [end:non-full-hook-two-nodes]

# --8<-- [start:non-full-hook-non-tensor]
import torch


class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(2))

    def forward(self, x, s):
        return self.w * x * s


m = Scale()
m.register_backward_hook(lambda mod, gin, gout: None)
m(torch.ones(2, requires_grad=True), 3.0).sum().backward()
# --8<-- [end:non-full-hook-non-tensor]
