# setup: load
import json
from pathlib import Path

import autograd_lens

# autograd_lens is installed in editable mode from src/: its location leads to
# the repository root, where the benchmarks wrote their result files.
ROOT = Path(autograd_lens.__file__).resolve().parents[2]


def load_result(name):
    return json.loads((ROOT / "benchmarks/results" / name).read_text())


# --8<-- [start:load]
result = load_result("cpu/detach_vs_clone.json")  # (1)!


def fmt(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g}{unit}"
    return f"{seconds * 1e9:.3g}ns"


ops = ["detach", "clone", "data", "detach_clone", "copy_", "empty_copy_"]
heads = ["detach", "clone", ".data", "det.cl", "copy_", "emp.cp"]
print(f"{'numel':>5}" + "".join(f"{h:>9}" for h in heads) + " clone/cp")
for d in result["derived"]:
    n = d["numel"]
    by = {c["op"]: c for c in result["cases"] if c["numel"] == n}
    row = "".join(f"{fmt(by[op]['timing']['median']):>9}" for op in ops)
    ratio = d["clone_over_copy_bandwidth"]
    print(f"{f'1e{len(str(n)) - 1}':>5}{row}{ratio:>9.2f}")
# --8<-- [end:load]

# --8<-- [start:memory]
big = {c["op"]: c for c in result["cases"] if c["numel"] == 10**8}
print(f"{'op':<12}{'new MB':>7}{'shares':>7}{'faults':>7}{'req_grad':>9}")
for op in ops:
    m = big[op]["memory"]
    print(f"{op:<12}{m['new_storage_bytes'] / 1e6:>7.0f}"
          f"{m['shares_storage_with_input']!s:>7}"
          f"{m['minor_page_faults']:>7}{m['result_requires_grad']!s:>9}")
mem = {op: big[op]["memory"] for op in ops}
time = {op: big[op]["timing"]["median"] for op in ops}
assert mem["detach"]["new_storage_bytes"] == 0  # (1)!
assert mem["clone"]["new_storage_bytes"] == 4 * 10**8
assert time["detach"] < time["clone"] / 100  # (2)!
pages = -(-4 * 10**8 // 4096)
assert mem["copy_"]["minor_page_faults"] == 0  # (3)!
assert mem["clone"]["minor_page_faults"] == pages
# --8<-- [end:memory]

# --8<-- [start:seed]
post_b = {"detach": 1e-4, "clone": 0.5}
for op, claimed in post_b.items():
    t = big[op]["timing"]
    print(f"{op}: Post B {fmt(claimed)}, median {fmt(t['median'])}")
    print(f"   (IQR {fmt(t['iqr'])}; {len(t['raw'])} blocks)")
assert time["detach"] < 1e-5  # (1)!
# --8<-- [end:seed]
