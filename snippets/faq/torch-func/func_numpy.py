# raises: func-numpy RuntimeError
"""FAQ: NumPy inside a torch.func transform: the advice in the first error
fails under the transform; an autograd.Function with setup_context works."""

# --8<-- [start:func-numpy]
import numpy as np
import torch
from torch.func import grad, jacrev


class NumpySin(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return torch.from_numpy(np.sin(x.cpu().numpy())).to(x)  # (1)!

    @staticmethod
    def setup_context(ctx, inputs, output):  # (2)!
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.cos(x)  # (3)!


x = torch.tensor([0.1, 0.5, 1.0], dtype=torch.float64)
g = grad(lambda t: NumpySin.apply(t).sum())(x)
print("grad through NumPy:", [round(v, 4) for v in g.tolist()])
assert torch.allclose(g, torch.cos(x))
assert torch.allclose(jacrev(NumpySin.apply)(x), torch.diag(torch.cos(x)))


def f(t):
    return torch.from_numpy(np.sin(t.detach().numpy())).sum() + t.sum()  # (4)!


grad(f)(x)
# --8<-- [end:func-numpy]
