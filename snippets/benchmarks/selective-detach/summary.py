# --8<-- [start:table]
import json
from pathlib import Path

import autograd_lens

ROOT = Path(autograd_lens.__file__).resolve().parents[2]  # (1)!
result = json.loads((ROOT / "benchmarks/results/cpu/selective_detach.json").read_text())
by = {c["variant"]: c for c in result["cases"]}
full = by["full"]
print(f"{'variant':<17} {'held for backward':>17} {'vs full':>7} {'step median':>12} {'vs full':>7}")
for name, c in by.items():
    held = c["saved"]["live_nbytes_at_backward"]
    t = c["timing"]["median"]
    print(f"{name:<17} {held / 1e6:>14.1f} MB {held / full['saved']['live_nbytes_at_backward']:>6.2f}x "
          f"{t * 1e3:>9.1f} ms {t / full['timing']['median']:>6.2f}x")
# --8<-- [end:table]

# --8<-- [start:grads]
groups = list(full["grad_relative_error_vs_full"])
print(f"{'relative gradient error':<24}" + "".join(f"{g:>9}" for g in groups))
for name in ("selective_detach", "checkpoint"):
    err = by[name]["grad_relative_error_vs_full"]
    print(f"{name:<24}" + "".join(f"{err[g]:>9.2g}" for g in groups))
assert max(by["checkpoint"]["grad_relative_error_vs_full"].values()) < 1e-6  # (1)!
lower = [g for g in groups if g.startswith("layer") and int(g[5:]) < result["params"]["num_layers"] // 2]
assert all(by["selective_detach"]["grad_relative_error_vs_full"][g] == 1.0 for g in lower)  # (2)!
assert by["selective_detach"]["grad_relative_error_vs_full"]["head"] == 0.0
# --8<-- [end:grads]

# --8<-- [start:seed]
seed = {"full": ("24GB", "1.0x", "baseline"), "selective_detach": ("18GB", "1.2x", "±0.01%"),
        "checkpoint": ("15GB", "0.8x", "±0.05%")}
print(f"{'':<17}{'seed 003 (no setup)':<23}| measured here (CPU)")
for name, (mem, speed, grad) in seed.items():
    c = by[name]
    mem_ratio = c["saved"]["live_nbytes_at_backward"] / full["saved"]["live_nbytes_at_backward"]
    speed_ratio = full["timing"]["median"] / c["timing"]["median"]
    worst = max(c["grad_relative_error_vs_full"].values())
    print(f"{name:<17}{mem:>5}{speed:>6}{grad:>10}  | "
          f"held {mem_ratio:.2f}x, speed {speed_ratio:.2f}x, grad err ≤ {worst:.0%}")
# --8<-- [end:seed]
