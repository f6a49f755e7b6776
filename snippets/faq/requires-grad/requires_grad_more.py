# raises: retain-grad-no-requires-grad RuntimeError
"""FAQ: retain_grad() only on a tensor that is in the graph."""

# --8<-- [start:retain-grad-no-requires-grad]
import torch

w = torch.ones(2, requires_grad=True)
x = torch.tensor([1.0, 2.0])
h = x * w  # (1)!
h.retain_grad()
(h**2).sum().backward()
print("h.requires_grad:", h.requires_grad, "| h.grad:", h.grad)
assert torch.equal(h.grad, 2 * h.detach())

cut = (x * w).detach()  # (2)!
assert not cut.requires_grad and cut.grad_fn is None
cut.retain_grad()  # (3)!
# --8<-- [end:retain-grad-no-requires-grad]
