# --8<-- [start:provenance]
import json
from pathlib import Path

import autograd_lens

ROOT = Path(autograd_lens.__file__).resolve().parents[2]  # (1)!
for path in sorted((ROOT / "benchmarks/results").glob("*/*.json")):
    r = json.loads(path.read_text())
    p = r["provenance"]
    print(f"{path.parent.name}/{path.name}")
    print(f"  machine : {p['machine']['cpu_model']}, {p['machine']['logical_cores']} cores, "
          f"{p['machine']['ram_bytes'] / 2**30:.0f} GiB RAM")
    print(f"  device  : {p['device']['type']} ({p['device']['name']})")
    print(f"  software: torch {p['torch']} ({p['torch_num_threads']} threads), Python {p['python']}")
    changed = p["git"].get("benchmark_code_dirty", p["git"]["dirty"])
    print(f"  when    : {p['date_utc']}, size {r['size']}")
    print(f"  commit  : {p['git']['commit'][:7]}{' + uncommitted benchmark code' if changed else ''}")
    print(f"  load    : {p['load_average']['start']} -> {p['load_average']['end']}, "
          f"took {p['duration_s']:.0f} s")
    assert r["size"] == "full"  # (2)!
# --8<-- [end:provenance]
