# warns: warn UserWarning
"""torch.tensor(t) on a tensor copies it, warns and names the spelling to
use instead: t.detach().clone()."""

# --8<-- [start:warn]
import torch

t = torch.tensor([1.0, 2.0], requires_grad=True)
copy = torch.tensor(t)  # (1)!
assert not copy.requires_grad and copy.data_ptr() != t.data_ptr()

better = t.detach().clone()  # (2)!
assert torch.equal(better, copy) and not better.requires_grad
assert better.data_ptr() != t.data_ptr()
# --8<-- [end:warn]
