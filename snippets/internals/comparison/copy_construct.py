"""torch.tensor(t) on a tensor copies it, warns and names the spelling to
use instead: t.detach().clone()."""

# --8<-- [start:warn]
import textwrap
import warnings

import torch

t = torch.tensor([1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    copy = torch.tensor(t)  # (1)!
message = str(caught[0].message)
print(caught[0].category.__name__ + ":")
print(textwrap.fill(message, 78))
assert caught[0].category is UserWarning
assert "detach()" in message and "clone()" in message  # (2)!
assert not copy.requires_grad and copy.data_ptr() != t.data_ptr()

better = t.detach().clone()  # (3)!
assert torch.equal(better, copy) and not better.requires_grad
assert better.data_ptr() != t.data_ptr()
# --8<-- [end:warn]
