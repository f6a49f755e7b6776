"""Errors and warnings: backward with create_graph=True, and anomaly
detection finding a NaN."""

# warns: create-graph-cycle UserWarning
# raises: anomaly-nan RuntimeError
# stderr: anomaly detection prints the forward call that made the NaN

# --8<-- [start:create-graph-cycle-fix]
import torch

w = torch.tensor([2.0], requires_grad=True)
(g,) = torch.autograd.grad((w ** 3).sum(), w, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), w)
print(g, gg)
assert g.item() == 12.0 and gg.item() == 12.0 and w.grad is None
# --8<-- [end:create-graph-cycle-fix]

# --8<-- [start:create-graph-cycle]
import torch

w = torch.tensor([2.0], requires_grad=True)
(w ** 3).sum().backward(create_graph=True)
print(w.grad)
# --8<-- [end:create-graph-cycle]

# --8<-- [start:anomaly-nan-fix]
import torch

x = torch.tensor([-1.0, 4.0], requires_grad=True)
torch.sqrt(x.clamp(min=1e-6)).sum().backward()
print(x.grad)
assert x.grad.isfinite().all()
# --8<-- [end:anomaly-nan-fix]

# --8<-- [start:anomaly-nan]
import torch

x = torch.tensor([-1.0, 4.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    torch.sqrt(x).sum().backward()
# --8<-- [end:anomaly-nan]
