"""Errors: a post-accumulate-grad hook that returns a value, a tensor with a
hook pickled by torch.save."""

# raises: post-acc-return RuntimeError
# warns: hook-not-saved UserWarning

# --8<-- [start:post-acc-return-fix]
import torch

w = torch.ones(2, requires_grad=True)


def halve(p):
    p.grad.mul_(0.5)


w.register_post_accumulate_grad_hook(halve)
(w * 2).sum().backward()
print(w.grad)
assert w.grad.tolist() == [1.0, 1.0]
# --8<-- [end:post-acc-return-fix]

# --8<-- [start:post-acc-return]
import torch

w = torch.ones(2, requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: p.grad * 0.5)
(w * 2).sum().backward()
# --8<-- [end:post-acc-return]

# --8<-- [start:hook-not-saved-fix]
import io

import torch

w = torch.ones(2, requires_grad=True)
handle = w.register_hook(print)
handle.remove()
buffer = io.BytesIO()
torch.save(w, buffer)
buffer.seek(0)
loaded = torch.load(buffer)
print(loaded)
assert torch.equal(loaded, w) and loaded.requires_grad
# --8<-- [end:hook-not-saved-fix]

# --8<-- [start:hook-not-saved]
import io

import torch

w = torch.ones(2, requires_grad=True)
w.register_hook(print)
torch.save(w, io.BytesIO())
# --8<-- [end:hook-not-saved]
