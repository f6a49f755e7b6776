"""FAQ: detach() vs clone()."""

# --8<-- [start:detach-vs-clone]
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3

c = y.clone()  # (1)!
assert c.data_ptr() != y.data_ptr() and c.requires_grad
d = y.detach()  # (2)!
assert d.data_ptr() == y.data_ptr() and not d.requires_grad
both = y.detach().clone()  # (3)!
assert both.data_ptr() != y.data_ptr() and not both.requires_grad

for name, t in [("clone()", c), ("detach()", d), ("detach().clone()", both)]:
    copies = t.data_ptr() != y.data_ptr()
    print(f"{name}: copies {copies}, in the graph {t.requires_grad}")

(c + d).sum().backward()  # (4)!
print("x.grad:", x.grad)
assert x.grad.tolist() == [3.0, 3.0]
# --8<-- [end:detach-vs-clone]
