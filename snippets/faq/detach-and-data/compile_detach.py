# timeout: 300
"""FAQ: a compiled module that returns its loss and a detached copy of it."""

# --8<-- [start:compile-loss-detach]
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 1)

    def forward(self, x):
        loss = self.linear(x).pow(2).mean()
        return {"loss": loss, "loss_for_logging": loss.detach()}  # (1)!


torch.manual_seed(0)
model, x = Model(), torch.randn(8, 4)
compiled = torch.compile(model, backend="aot_eager")  # (2)!
out = compiled(x)
loss, logged = out["loss"], out["loss_for_logging"]
print("two tensors:", loss is not logged)
print("loss requires grad:", loss.requires_grad)
print("logged requires grad:", logged.requires_grad)
print("same storage:", loss.data_ptr() == logged.data_ptr())  # (3)!
loss.backward()
eager = model.linear.weight.grad.clone()
model.zero_grad()
model(x)["loss"].backward()
same = torch.allclose(eager, model.linear.weight.grad)
print("same gradient as eager:", same)
assert loss is not logged and loss.requires_grad
assert not logged.requires_grad
assert loss.data_ptr() == logged.data_ptr()
assert same
# --8<-- [end:compile-loss-detach]
