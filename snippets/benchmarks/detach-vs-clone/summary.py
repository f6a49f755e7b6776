# --8<-- [start:load]
import json
from pathlib import Path

import autograd_lens

ROOT = Path(autograd_lens.__file__).resolve().parents[2]  # (1)!
result = json.loads((ROOT / "benchmarks/results/cpu/detach_vs_clone.json").read_text())


def fmt(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g}{unit}"
    return f"{seconds * 1e9:.3g}ns"


ops = ["detach", "data", "clone", "detach_clone", "copy_", "empty_copy_"]
heads = ["detach", ".data", "clone", "det.clone", "copy_", "empty+cp", "clone/copy_"]
print(f"{'numel':>5}" + "".join(f"{h:>10}" for h in heads[:-1]) + f"{heads[-1]:>12}")
for d in result["derived"]:
    n = d["numel"]
    by = {c["op"]: c for c in result["cases"] if c["numel"] == n}
    row = "".join(f"{fmt(by[op]['timing']['median']):>10}" for op in ops)
    print(f"{'1e%d' % (len(str(n)) - 1):>5}{row}{d['clone_over_copy_bandwidth']:>12.2f}")
# --8<-- [end:load]

# --8<-- [start:memory]
big = {c["op"]: c for c in result["cases"] if c["numel"] == 10**8}
for op in ops:
    m = big[op]["memory"]
    print(f"{op:>11}: shares storage {m['shares_storage_with_input']!s:5} | "
          f"new {m['new_storage_bytes'] / 1e6:3.0f} MB | requires_grad {m['result_requires_grad']!s:5} | "
          f"faults {m['minor_page_faults']}")
assert big["detach"]["memory"]["new_storage_bytes"] == 0  # (1)!
assert big["clone"]["memory"]["new_storage_bytes"] == 4 * 10**8
assert big["detach"]["timing"]["median"] < big["clone"]["timing"]["median"] / 100  # (2)!
assert big["copy_"]["memory"]["minor_page_faults"] == 0 < big["clone"]["memory"]["minor_page_faults"]  # (3)!
# --8<-- [end:memory]

# --8<-- [start:seed]
seed = {"detach": 1e-4, "clone": 0.5}  # seed 002, 1e8 elements, time.time()
for op, claimed in seed.items():
    ours = big[op]["timing"]
    print(f"{op:>6}: seed {fmt(claimed):>6} | measured median {fmt(ours['median']):>6} "
          f"(IQR {fmt(ours['iqr'])}; {len(ours['raw'])} blocks of {ours['number_per_block']} calls)")
assert big["detach"]["timing"]["median"] < 1e-5  # (1)!
# --8<-- [end:seed]
