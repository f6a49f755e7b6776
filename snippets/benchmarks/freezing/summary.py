# setup: table
import json
from pathlib import Path

import autograd_lens

# autograd_lens is installed in editable mode from src/: its location leads to
# the repository root, where the benchmarks wrote their result files.
ROOT = Path(autograd_lens.__file__).resolve().parents[2]


def load_result(name):
    return json.loads((ROOT / "benchmarks/results" / name).read_text())


# --8<-- [start:table]
result = load_result("cpu/freezing.json")  # (1)!
by = {c["strategy"]: c for c in result["cases"]}
print(f"{'strategy':<19}{'end MB':>7}{'step ms':>8}{'mid MB':>7}"
      f"{'saved':>6}{'IQR':>6}{'req_grad':>9}")
for name, c in by.items():
    t, s = c["timing"], c["saved"]
    print(f"{name:<19}{s['live_nbytes_at_backward'] / 1e6:>7.2f}"
          f"{t['median'] * 1e3:>8.1f}"
          f"{s['live_nbytes_after_backbone'] / 1e6:>7.2f}{s['count']:>6}"
          f"{t['iqr'] * 1e3:>6.1f}{c['trainable_parameters']:>9}")
# --8<-- [end:table]

# --8<-- [start:verdict]
held = {k: c["saved"]["live_nbytes_at_backward"] for k, c in by.items()}
mid = {k: c["saved"]["live_nbytes_after_backbone"] for k, c in by.items()}
peak = {k: max(mid[k], held[k]) for k in by}  # (1)!
step = {k: c["timing"]["median"] for k, c in by.items()}
frozen = "requires_grad_false"
print("Post C: detach saves ~40% memory")
print("        detach trains 1.27x as fast")
print("measured, saved below full fine-tuning:")
print(f"{'strategy':<20}{'peak':>5}{'at backward':>12}")
for k in ("detach", frozen, "no_grad"):
    print(f"{k:<20}{1 - peak[k] / peak['full']:>5.0%}"
          f"{1 - held[k] / held['full']:>12.0%}")
print(f"detach trains {step[frozen] / step['detach']:.2f}x as fast")
print("   as requires_grad_(False)")
assert held["detach"] == held[frozen] == held["no_grad"] < held["full"]  # (2)!
assert mid["detach"] == mid["full"] > 0  # (3)!
assert mid[frozen] == mid["no_grad"] == 0
assert peak[frozen] == peak["no_grad"] < peak["detach"] < peak["full"]
detach_saves = 1 - peak["detach"] / peak["full"]  # (4)!
frozen_saves = 1 - peak[frozen] / peak["full"]
assert detach_saves < 0.4 < frozen_saves
diff = "head_grad_max_abs_diff_vs_requires_grad_false"
assert all(c[diff] == 0.0 for c in by.values())  # (5)!
# --8<-- [end:verdict]
