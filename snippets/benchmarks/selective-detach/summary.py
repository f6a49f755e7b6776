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
print("vs full: held at backward, step time")
for k in by:
    print(f"{k:<17}{held[k] / held['full']:>5.2f}x"
          f"{step[k] / step['full']:>6.2f}x")
print("absolute:")
for k in by:
    print(f"{k:<17}{held[k] / 1e6:>5.1f} MB{step[k] * 1e3:>6.1f} ms")
# --8<-- [end:table]

# --8<-- [start:grads]
err = {k: c["grad_relative_error_vs_full"] for k, c in by.items()}
groups = list(err["full"])
heads = [g.replace("layer", "L") for g in groups]
print(f"{'relative error':<17}" + "".join(f"{h:>5}" for h in heads))
for k in ("selective_detach", "checkpoint"):
    print(f"{k:<17}" + "".join(f"{err[k][g]:>5.2g}" for g in groups))
assert len({c["loss"] for c in by.values()}) == 1
assert max(err["checkpoint"].values()) < 1e-6  # (1)!
cut = result["params"]["num_layers"] // 2
lower = [g for g in groups if g.startswith("layer") and int(g[5:]) < cut]
assert all(err["selective_detach"][g] == 1.0 for g in lower)  # (2)!
upper = [g for g in groups if g not in lower]
assert all(err["selective_detach"][g] == 0.0 for g in upper)
# --8<-- [end:grads]

# --8<-- [start:seed]
post_c = {"full": ("24GB", "1.0x", "baseline"),
          "selective_detach": ("18GB", "1.2x", "±0.01%"),
          "checkpoint": ("15GB", "0.8x", "±0.05%")}
print(f"{'Post C':<17}{'memory':>6}{'speed':>6}{'grad':>9}")
for k, (mem, speed, grad) in post_c.items():
    print(f"{k:<17}{mem:>6}{speed:>6}{grad:>9}")
print(f"{'measured (CPU)':<17}{'held':>6}{'speed':>6}{'error':>6}")
for k in post_c:
    print(f"{k:<17}{held[k] / held['full']:>5.2f}x"
          f"{step['full'] / step[k]:>5.2f}x{max(err[k].values()):>6.0%}")
# --8<-- [end:seed]
