# stderr: torch builds with Kineto log each profiler start and stop to stderr
"""What detach() runs, what it allocates, and what it returns, checked from
Python."""

# --8<-- [start:schema]
import torch
from torch.profiler import ProfilerActivity, profile
from torch.utils._python_dispatch import TorchDispatchMode

print(torch.ops.aten.detach.default._schema)  # (1)!
print(torch.ops.aten.detach_.default._schema)
schema = str(torch.ops.aten.detach.default._schema)
assert schema == "aten::detach(Tensor(a) self) -> Tensor(a)"
# --8<-- [end:schema]

# --8<-- [start:dispatch]
class AtenLog(TorchDispatchMode):
    """Record every ATen operator that reaches the backend."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
logs = {}
for expr in ("y.detach()", "y.clone()", "y.detach().clone()"):
    with AtenLog() as log:
        eval(expr)
    logs[expr] = log.ops
    print(f"{expr} -> {log.ops}")  # (1)!
assert set(logs["y.detach()"]) == {"aten.detach.default"}
assert logs["y.clone()"] == ["aten.clone.default"]
assert logs["y.detach().clone()"][-1] == "aten.clone.default"
# --8<-- [end:dispatch]

# --8<-- [start:no-allocation]
big = torch.zeros(10_000_000, requires_grad=True) * 1


def bytes_allocated(fn):
    """The most CPU memory any single operator allocated while fn ran."""
    activities = [ProfilerActivity.CPU]
    with profile(activities=activities, profile_memory=True) as prof:
        fn()
    return max((e.cpu_memory_usage for e in prof.events()), default=0)


for name, fn in [("detach()", big.detach), ("clone()", big.clone)]:
    print(f"{name:9} allocates {bytes_allocated(fn):>10,} bytes")
assert bytes_allocated(big.detach) == 0  # (1)!
assert bytes_allocated(big.clone) == big.numel() * big.element_size()
# --8<-- [end:no-allocation]

# --8<-- [start:what-is-copied]
d = big.detach()
print("new tensor object:", d is not big)
assert d is not big
same = {
    "storage (data_ptr)":
        d.untyped_storage().data_ptr() == big.untyped_storage().data_ptr(),
    "sizes": d.shape == big.shape,
    "strides": d.stride() == big.stride(),
    "storage_offset": d.storage_offset() == big.storage_offset(),
    "dtype / device": (d.dtype, d.device) == (big.dtype, big.device),
}
for k, v in same.items():
    print(f"{k}: same {v}")
assert all(same.values())  # (1)!
print("requires_grad:", d.requires_grad, "| grad_fn:", d.grad_fn)
print("is_leaf:", d.is_leaf)
print("_is_view():", d._is_view(), "| _base:", d._base)  # (2)!
assert not d.requires_grad and d.grad_fn is None and d.is_leaf
assert not d._is_view() and d._base is None
# --8<-- [end:what-is-copied]

# --8<-- [start:views]
base = torch.arange(6.0, requires_grad=True) * 1
row = base.view(2, 3)[1]  # (1)!
print("row._is_view():", row._is_view(), "| _base is base:",
      row._base is base)
drow = row.detach()
print("drow._is_view():", drow._is_view(), "| _base:", drow._base)  # (2)!
print("drow.storage_offset():", drow.storage_offset())
shares = drow.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
print("drow shares base's storage:", shares)
drow.zero_()
print("base._version:", base._version)  # (3)!
print("base:", base.detach())
assert row._is_view() and not drow._is_view() and shares and base._version == 1
# --8<-- [end:views]

# --8<-- [start:data]
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1
y.add_(1)
print("y._version:", y._version)
print("y.detach()._version:", y.detach()._version)  # (1)!
print("y.data._version:    ", y.data._version)  # (2)!
assert y.detach()._version == 1 and y.data._version == 0
assert y.data.data_ptr() == y.data_ptr() and y.data.grad_fn is None
# --8<-- [end:data]
