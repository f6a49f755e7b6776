"""Forward-mode AD: detach() drops the tangent too."""

# --8<-- [start:dual]
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([0.0, 1.0, 2.0])
tangent = torch.ones(3)
with fwAD.dual_level():
    x = fwAD.make_dual(primal, tangent)
    y = x.sin()
    d = y.detach()  # (1)!
    z = y * d  # (2)!
    print("tangents")
    print("  y:", fwAD.unpack_dual(y).tangent)
    print("  y.detach():", fwAD.unpack_dual(d).tangent)
    print("  y*d:", fwAD.unpack_dual(z).tangent)
    assert fwAD.unpack_dual(d).tangent is None
    assert y.grad_fn is None and not y.requires_grad
    expected = primal.cos() * primal.sin()
    assert torch.allclose(fwAD.unpack_dual(z).tangent, expected)
# --8<-- [end:dual]
