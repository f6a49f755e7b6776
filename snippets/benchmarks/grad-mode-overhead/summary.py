# --8<-- [start:table]
import json
from pathlib import Path

import autograd_lens

ROOT = Path(autograd_lens.__file__).resolve().parents[2]  # (1)!
result = json.loads((ROOT / "benchmarks/results/cpu/grad_mode_overhead.json").read_text())
modes = ["grad", "grad_detach", "no_grad", "inference_mode"]
print(f"{'model':<5} {'mode':<15} {'median':>10} {'IQR':>9} {'vs grad':>8} {'saved for backward':>19}")
for c in result["cases"]:
    base = next(b for b in result["cases"] if b["model"] == c["model"] and b["mode"] == "grad")
    t = c["timing"]
    print(f"{c['model']:<5} {c['mode']:<15} {t['median'] * 1e3:>7.3f} ms {t['iqr'] * 1e3:>6.3f} ms "
          f"{t['median'] / base['timing']['median']:>7.2f}x {c['saved']['nbytes'] / 1e6:>15.2f} MB")
# --8<-- [end:table]

# --8<-- [start:facts]
by = {(c["model"], c["mode"]): c for c in result["cases"]}
for model in ("mlp", "cnn"):
    assert by[model, "grad"]["saved"]["nbytes"] > 0  # (1)!
    assert by[model, "grad_detach"]["saved"]["nbytes"] == by[model, "grad"]["saved"]["nbytes"]
    assert by[model, "no_grad"]["saved"]["count"] == by[model, "inference_mode"]["saved"]["count"] == 0
    assert by[model, "inference_mode"]["output_is_inference"]
print("grad_detach saves as much as grad; no_grad and inference_mode save nothing")
# --8<-- [end:facts]
