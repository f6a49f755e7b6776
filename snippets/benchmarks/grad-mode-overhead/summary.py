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
result = load_result("cpu/grad_mode_overhead.json")  # (1)!
by = {(c["model"], c["mode"]): c for c in result["cases"]}
print(f"{'model':<5} {'mode':<14} {'vs grad':>7} {'saved':>8}"
      f" {'median':>9} {'IQR':>8}")
for (model, mode), c in by.items():
    t, base = c["timing"], by[model, "grad"]["timing"]
    print(f"{model:<5} {mode:<14} {t['median'] / base['median']:>6.2f}x"
          f" {c['saved']['nbytes'] / 1e6:>5.2f} MB"
          f" {t['median'] * 1e3:>6.3f} ms {t['iqr'] * 1e3:>5.3f} ms")
# --8<-- [end:table]

# --8<-- [start:facts]
for model in ("mlp", "cnn"):
    grad, after = by[model, "grad"], by[model, "grad_detach"]
    assert grad["saved"]["nbytes"] > 0  # (1)!
    assert after["saved"]["nbytes"] == grad["saved"]["nbytes"]
    assert by[model, "no_grad"]["saved"]["count"] == 0
    assert by[model, "inference_mode"]["saved"]["count"] == 0
    assert by[model, "inference_mode"]["output_is_inference"]
print("grad_detach saves as much as grad;")
print("no_grad and inference_mode save nothing")
# --8<-- [end:facts]
