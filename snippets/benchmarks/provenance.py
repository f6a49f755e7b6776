# setup: provenance
import json
from pathlib import Path

import autograd_lens

# autograd_lens is installed in editable mode from src/: its location leads to
# the repository root, where the benchmarks wrote their result files.
ROOT = Path(autograd_lens.__file__).resolve().parents[2]


def result_files():
    for path in sorted((ROOT / "benchmarks/results").glob("*/*.json")):
        yield path, json.loads(path.read_text())


# --8<-- [start:provenance]
for path, r in result_files():  # (1)!
    p = r["provenance"]
    m, git, load = p["machine"], p["git"], p["load_average"]
    changed = git.get("benchmark_code_dirty", git["dirty"])
    print(f"{path.parent.name}/{path.name}")
    print(f"  machine: {m['cpu_model']}")
    print(f"     {m['logical_cores']} cores, "
          f"{m['ram_bytes'] / 2**30:.0f} GiB RAM")
    print(f"  device: {p['device']['type']} ({p['device']['name']})")
    print(f"  torch {p['torch']}, {p['torch_num_threads']} threads")
    print(f"  Python {p['python']}")
    print(f"  when: {p['date_utc']}, size {r['size']}")
    print(f"  commit: {git['commit'][:7]}"
          f"{' + uncommitted benchmark code' if changed else ''}")
    print(f"  load: {load['start']} -> {load['end']}")
    print(f"  took {p['duration_s']:.0f} s")
    assert r["size"] == "full"  # (2)!
# --8<-- [end:provenance]
