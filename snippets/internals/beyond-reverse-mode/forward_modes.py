"""Forward-mode AD beside the grad modes and in-place detach: no_grad()
keeps tangents, inference_mode() drops them, detach_() drops them, and an
in-place write into t.detach() does not give t a tangent."""

# --8<-- [start:grad-modes]
import torch
import torch.autograd.forward_ad as fwAD

primal, direction = torch.tensor([1.0, 2.0]), torch.ones(2)
with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    with torch.no_grad():
        a = x * 3  # (1)!
    with torch.inference_mode():
        b = x * 3  # (2)!
    c = x.clone()
    c.detach_()  # (3)!
    tangents = {"no_grad(): x * 3": fwAD.unpack_dual(a).tangent,
                "inference_mode(): x * 3": fwAD.unpack_dual(b).tangent,
                "x.clone().detach_()": fwAD.unpack_dual(c).tangent}
    for name, t in tangents.items():
        print(f"{name}: tangent {t}")
    assert torch.equal(tangents["no_grad(): x * 3"], 3 * direction)
    assert tangents["inference_mode(): x * 3"] is None
    assert tangents["x.clone().detach_()"] is None
# --8<-- [end:grad-modes]

# --8<-- [start:alias-write]
with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    t = torch.zeros(2)
    alias = t.detach()
    alias += x  # (1)!
    print("t:", t, "| tangent of t:", fwAD.unpack_dual(t).tangent)
    print("tangent of the alias:", fwAD.unpack_dual(alias).tangent)
    assert torch.equal(t, primal)
    assert fwAD.unpack_dual(t).tangent is None  # (2)!
    assert torch.equal(fwAD.unpack_dual(alias).tangent, direction)
# --8<-- [end:alias-write]
