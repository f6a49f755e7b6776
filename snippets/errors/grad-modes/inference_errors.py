"""Errors: asking an inference tensor for gradients."""

# raises: inference-requires-grad RuntimeError

# --8<-- [start:inference-requires-grad-fix]
import torch

with torch.inference_mode():
    x = torch.ones(3)
w = x.clone().requires_grad_()
(w * 2).sum().backward()
print(torch.is_inference(x), torch.is_inference(w), w.grad)
assert not torch.is_inference(w) and w.grad.tolist() == [2.0] * 3
# --8<-- [end:inference-requires-grad-fix]

# --8<-- [start:inference-requires-grad]
import torch

with torch.inference_mode():
    x = torch.ones(3)
x.requires_grad_()
# --8<-- [end:inference-requires-grad]
