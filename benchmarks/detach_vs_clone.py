"""detach(), .data, clone(), detach().clone() and a plain copy_ across tensor sizes."""

from __future__ import annotations

import resource

import torch

from .common import Context, budget, time_many

# Timing per size: 1.5 s gives the six ops 9+ blocks of thousands of sub-microsecond
# calls; from 1e7 elements a clone takes milliseconds, so 4 s keeps 9 blocks of several.
BUDGET_S = 1.5
LARGE_BUDGET_S = 4.0
LARGE_NUMEL = 10**7
MIN_BLOCKS = 9

TITLE = "detach vs clone"
FULL_SIZES = [10**k for k in range(3, 9)]  # 1e3 ... 1e8 float32 elements (4 kB ... 400 MB)
TINY_SIZES = [10**3, 10**4]

OPS = {
    "detach": lambda x, dst: x.detach(),
    "data": lambda x, dst: x.data,
    "clone": lambda x, dst: x.clone(),
    "detach_clone": lambda x, dst: x.detach().clone(),
    "copy_": lambda x, dst: dst.copy_(x.detach()),  # into a preallocated tensor: the copy limit
    "empty_copy_": lambda x, dst: torch.empty_like(x, requires_grad=False).copy_(x.detach()),
}


def _memory(op, x: torch.Tensor, dst: torch.Tensor, ctx: Context) -> dict:
    """Bytes a call leaves allocated: CUDA allocator delta, or the result's new storage on CPU."""
    mem: dict = {}
    if ctx.cuda:
        ctx.sync()
        before = torch.cuda.memory_allocated(ctx.device)
        out = op(x, dst)
        ctx.sync()
        mem["cuda_allocated_delta_bytes"] = torch.cuda.memory_allocated(ctx.device) - before
    else:
        op(x, dst)  # a warm call, then count the minor page faults of one more call
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        out = op(x, dst)
        mem["minor_page_faults"] = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    shares = out.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    new_storage = not shares and out.untyped_storage().data_ptr() != dst.untyped_storage().data_ptr()
    mem["shares_storage_with_input"] = shares
    mem["new_storage_bytes"] = out.untyped_storage().nbytes() if new_storage else 0
    mem["result_requires_grad"] = out.requires_grad
    del out
    return mem


def run(ctx: Context) -> dict:
    sizes = TINY_SIZES if ctx.tiny else FULL_SIZES
    cases = []
    for n in sizes:
        torch.manual_seed(0)
        x = torch.randn(n, device=ctx.device, dtype=torch.float32, requires_grad=True)
        dst = torch.empty_like(x, requires_grad=False)
        nbytes = x.numel() * x.element_size()
        seconds = LARGE_BUDGET_S if n >= LARGE_NUMEL else BUDGET_S
        ctx.progress(f"n=1e{len(str(n)) - 1} ({nbytes / 1e6:g} MB): {', '.join(OPS)}")
        timings = time_many(
            {name: (lambda op=op, x=x, dst=dst: op(x, dst)) for name, op in OPS.items()},
            ctx,
            **budget(ctx, seconds, MIN_BLOCKS),
        )
        for name, op in OPS.items():
            timing = timings[name]
            case = {
                "op": name,
                "numel": n,
                "nbytes": nbytes,
                "timing": timing,
                "memory": _memory(op, x, dst, ctx),
            }
            if name in ("clone", "detach_clone", "copy_", "empty_copy_"):
                # a copy reads n bytes and writes n bytes
                case["bandwidth_bytes_per_s"] = 2 * nbytes / timing["median"]
            cases.append(case)
        del x, dst
    derived = []
    for n in sizes:
        by = {c["op"]: c for c in cases if c["numel"] == n}
        copy_bw = by["copy_"]["bandwidth_bytes_per_s"]
        derived.append(
            {
                "numel": n,
                "clone_over_copy_bandwidth": by["clone"]["bandwidth_bytes_per_s"] / copy_bw,
                "detach_clone_over_copy_bandwidth": by["detach_clone"]["bandwidth_bytes_per_s"] / copy_bw,
                "empty_copy_over_copy_bandwidth": by["empty_copy_"]["bandwidth_bytes_per_s"] / copy_bw,
                "clone_over_detach_time": by["clone"]["timing"]["median"] / by["detach"]["timing"]["median"],
            }
        )
    return {
        "params": {
            "dtype": "float32",
            "sizes": sizes,
            "input_requires_grad": True,
            "ops": {
                "detach": "x.detach()",
                "data": "x.data",
                "clone": "x.clone()",
                "detach_clone": "x.detach().clone()",
                "copy_": "dst.copy_(x.detach()) into a preallocated dst",
                "empty_copy_": "torch.empty_like(x).copy_(x.detach()): a fresh buffer, then a copy",
            },
        },
        "cases": cases,
        "derived": derived,
    }
