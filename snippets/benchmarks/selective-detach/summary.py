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
result = load_result("cpu/selective_detach.json")  # (1)!
by = {c["variant"]: c for c in result["cases"]}
held = {k: c["saved"]["live_nbytes_at_backward"] for k, c in by.items()}
step = {k: c["timing"]["median"] for k, c in by.items()}
print(f"{'variant':<17}{'held':>10}{'vs full':>8}{'step':>10}{'vs full':>8}")
for k in by:
    print(f"{k:<17}{held[k] / 1e6:>7.1f} MB{held[k] / held['full']:>7.2f}x"
          f"{step[k] * 1e3:>7.1f} ms{step[k] / step['full']:>7.2f}x")
# --8<-- [end:table]

# --8<-- [start:grads]
err = {k: c["grad_relative_error_vs_full"] for k, c in by.items()}
groups = list(err["full"])
print(f"{'relative error':<17}" + "".join(f"{g:>8}" for g in groups))
for k in ("selective_detach", "checkpoint"):
    print(f"{k:<17}" + "".join(f"{err[k][g]:>8.2g}" for g in groups))
assert len({c["loss"] for c in by.values()}) == 1  # same forward, same loss
assert max(err["checkpoint"].values()) < 1e-6  # (1)!
cut = result["params"]["num_layers"] // 2
lower = [g for g in groups if g.startswith("layer") and int(g[5:]) < cut]
assert all(err["selective_detach"][g] == 1.0 for g in lower)  # (2)!
upper = [g for g in groups if g not in lower]
assert all(err["selective_detach"][g] == 0.0 for g in upper)
# --8<-- [end:grads]

# --8<-- [start:seed]
seed = {"full": ("24GB", "1.0x", "baseline"),
        "selective_detach": ("18GB", "1.2x", "±0.01%"),
        "checkpoint": ("15GB", "0.8x", "±0.05%")}
print(f"{'':<17}{'seed 003':^21}   | measured here (CPU)")
print(f"{'':<17}{'memory':>6}{'speed':>6}{'grad':>9}   |"
      f" {'held':>6} {'speed':>6} {'error':>5}")
for k, (mem, speed, grad) in seed.items():
    print(f"{k:<17}{mem:>6}{speed:>6}{grad:>9}   | "
          f"{held[k] / held['full']:>5.2f}x {step['full'] / step[k]:>5.2f}x"
          f" {max(err[k].values()):>5.0%}")
# --8<-- [end:seed]
