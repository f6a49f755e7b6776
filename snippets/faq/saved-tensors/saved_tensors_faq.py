"""FAQ: what a grad_fn saved and what unpacking it returns; forward-mode
dual tensors and their primal."""

# raises: saved-variables-attr AttributeError

# --8<-- [start:saved-variables-attr]
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.pow(2)
print("saved attributes:",
      sorted(n for n in dir(b.grad_fn) if n.startswith("_saved")))

print("saved input is the same object:", b.grad_fn._saved_self is a)  # (1)!
assert b.grad_fn._saved_self is a

d = a.exp()
out = d.grad_fn._saved_result  # (2)!
print("saved output: same object?", out is d,
      "| same storage?", out.data_ptr() == d.data_ptr(),
      "| requires_grad:", out.requires_grad)
assert out is not d and out.data_ptr() == d.data_ptr()
d.detach().add_(1)  # (3)!
print("the unpacked copy sees the write:", out._version == d._version == 1)
assert out._version == d._version == 1

print(b.grad_fn.saved_variables)  # (4)!
# --8<-- [end:saved-variables-attr]

# Not shown: after the in-place write, unpacking the saved output again raises.
try:
    d.grad_fn._saved_result
except RuntimeError:
    pass
else:
    raise AssertionError("the saved output was modified in place")

# --8<-- [start:dual-aliases-primal]
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([1.0, 2.0])
tangent = torch.tensor([1.0, 0.0])
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    same = dual.untyped_storage().data_ptr() == primal.data_ptr()
    print("dual shares the primal's storage:", same)  # (1)!
    assert same
    primal.add_(1)  # (2)!
    print("after primal.add_(1): dual =", dual.tolist(),
          "| versions equal:", dual._version == primal._version)
    assert dual._version == primal._version
    p, t = fwAD.unpack_dual(dual)
    print("unpack_dual gives back the very tangent:", t is tangent)  # (3)!
    assert t is tangent
    out = dual.sin()
    (_, jvp) = fwAD.unpack_dual(out)
    assert torch.allclose(jvp, primal.cos() * tangent)
    print("detach() drops the tangent:",
          fwAD.unpack_dual(dual.detach()).tangent is None)
print("after the level exits, tangent:", fwAD.unpack_dual(out).tangent)
assert fwAD.unpack_dual(out).tangent is None  # (4)!
# --8<-- [end:dual-aliases-primal]
