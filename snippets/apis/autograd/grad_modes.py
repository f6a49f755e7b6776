# raises: anomaly-nan RuntimeError
# warns: anomaly UserWarning
# stderr: anomaly mode prints the traceback of the forward call that made the
# failing node, with this file's path in it
"""API inventory, torch.autograd: grad modes and anomaly mode."""

# --8<-- [start:set-grad-enabled]
import torch

w = torch.ones(2, requires_grad=True)
for mode in (True, False):
    with torch.set_grad_enabled(mode):  # (1)!
        y = w * 2
    print("mode", mode, "-> requires_grad:", y.requires_grad)
    assert y.requires_grad == mode
assert torch.is_grad_enabled()  # (2)!
# --8<-- [end:set-grad-enabled]

# --8<-- [start:is-grad-enabled]
import torch

with torch.no_grad():
    assert not torch.is_grad_enabled()
    assert not torch.is_inference_mode_enabled()
with torch.inference_mode():
    assert torch.is_inference_mode_enabled()
    assert not torch.is_grad_enabled()  # (1)!
with torch.inference_mode(mode=False):  # (2)!
    assert not torch.is_inference_mode_enabled()
print("outside:", torch.is_grad_enabled(),
      torch.is_inference_mode_enabled())
# --8<-- [end:is-grad-enabled]

# --8<-- [start:anomaly]
import torch

w = torch.ones(2, requires_grad=True)
with torch.autograd.detect_anomaly():
    y = (w * 2).sum()
lines = y.grad_fn.metadata["traceback_"]  # (1)!
assert isinstance(lines, list) and lines
z = (w * 2).sum()
assert "traceback_" not in z.grad_fn.metadata  # (2)!
print("frames kept per node:", len(lines) > 0)
# --8<-- [end:anomaly]

# --8<-- [start:anomaly-nan]
w = torch.zeros(1, requires_grad=True)
with torch.autograd.set_detect_anomaly(True, check_nan=True):
    y = (w / w).sum()  # (1)!
    y.backward()
# --8<-- [end:anomaly-nan]
