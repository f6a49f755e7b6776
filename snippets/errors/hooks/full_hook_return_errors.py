"""Errors: a full backward hook that returns gradients for a module none of
whose inputs requires grad."""

# stderr: the full backward hook also warns that no input requires grad
# raises: full-hook-return-no-input RuntimeError

# --8<-- [start:full-hook-return-no-input-fix]
import torch

lin = torch.nn.Linear(2, 2)
seen = []
lin.register_full_backward_hook(lambda m, gin, gout: seen.append(gout[0]))
x = torch.ones(1, 2, requires_grad=True)
lin(x).sum().backward()
print(seen[0], x.grad is not None)
assert seen[0].tolist() == [[1.0, 1.0]] and x.grad is not None
# --8<-- [end:full-hook-return-no-input-fix]

# --8<-- [start:full-hook-return-no-input]
import torch

lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gin, gout: (torch.zeros(1, 2),))
lin(torch.ones(1, 2)).sum().backward()
# --8<-- [end:full-hook-return-no-input]
