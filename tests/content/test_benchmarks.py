"""The benchmarks run (tiny, on CPU), write results with provenance, and back every figure."""

from __future__ import annotations

import glob
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import BENCHMARKS
from benchmarks.common import RESULTS
from tools.core.repo import ROOT
from tools.figures import build as fig_tools

# What these tests read (tests/support/verdicts.py: a test is reused while they are unchanged)
KEYED_ON = ("benchmarks", "tools", "src", "figures", "pyproject.toml")

PROVENANCE_KEYS = {
    "machine",
    "device",
    "torch",
    "torch_num_threads",
    "python",
    "date_utc",
    "git",
    "load_average",
    "duration_s",
    "command",
}


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def check_result(result: dict, name: str, device: str) -> None:
    from benchmarks.report import check_summaries

    check_summaries(result, Path(f"benchmarks/results/{device}/{name}.json"))
    assert result["schema"] == 1
    assert result["benchmark"] == name
    assert result["device"] == device
    assert result["size"] in ("tiny", "full")
    prov = result["provenance"]
    assert prov.keys() >= PROVENANCE_KEYS, PROVENANCE_KEYS - prov.keys()
    assert prov["machine"]["cpu_model"] and prov["machine"]["logical_cores"] >= 1
    assert prov["device"]["type"] == device
    if device == "cuda":
        assert prov["device"]["name"]
    assert prov["torch"] and prov["python"] and prov["date_utc"].endswith("Z")
    assert {"commit", "dirty"} <= prov["git"].keys()
    assert {"start", "end"} <= prov["load_average"].keys()
    assert result["params"] and result["cases"]
    for case in result["cases"]:
        timing = case["timing"]
        assert timing["unit"] == "s" and timing["number_per_block"] >= 1
        raw = timing["raw"]
        assert len(raw) >= 3 and all(v > 0 for v in raw)
        assert timing["q1"] <= timing["median"] <= timing["q3"]
        assert min(raw) <= timing["median"] <= max(raw)


@pytest.fixture(scope="module")
def tiny_results(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bench")
    proc = _run("run", "--device", "cpu", "--size", "tiny", "--results-dir", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"[{len(BENCHMARKS)}/{len(BENCHMARKS)}]" in proc.stderr  # the progress display
    return out


# One test for the tiny run (it takes seconds, and a fixture shared by several tests runs
# once per xdist worker); the message names the benchmark whose result is wrong.
def test_tiny_run_writes_valid_results_holding_the_deterministic_facts(tiny_results):
    for name in BENCHMARKS:
        path = tiny_results / "cpu" / f"{name}.json"
        assert path.is_file(), f"{name} wrote no result"
        try:
            check_result(json.loads(path.read_text()), name, "cpu")
        except AssertionError as err:
            raise AssertionError(f"benchmark {name}: invalid result {path}: {err}") from None
    _deterministic_facts(tiny_results)


def _deterministic_facts(tiny_results: Path) -> None:
    def load(name):
        return json.loads((tiny_results / "cpu" / f"{name}.json").read_text())

    dvc = load("detach_vs_clone")
    for case in dvc["cases"]:
        shares = case["op"] in ("detach", "data")
        assert case["memory"]["shares_storage_with_input"] is shares
        expected = case["nbytes"] if case["op"] in ("clone", "detach_clone", "empty_copy_") else 0
        assert case["memory"]["new_storage_bytes"] == expected
    frz = {c["strategy"]: c for c in load("freezing")["cases"]}
    for case in frz.values():
        assert case["head_grad_max_abs_diff_vs_requires_grad_false"] == 0.0
    assert (
        frz["detach"]["saved"]["live_nbytes_at_backward"]
        == frz["requires_grad_false"]["saved"]["live_nbytes_at_backward"]
        < frz["full"]["saved"]["live_nbytes_at_backward"]
    )
    sel = {c["variant"]: c for c in load("selective_detach")["cases"]}
    assert max(sel["checkpoint"]["grad_relative_error_vs_full"].values()) < 1e-5
    assert sel["selective_detach"]["grad_relative_error_vs_full"]["layer0"] == 1.0


def test_committed_results_are_valid():
    files = sorted(RESULTS.glob("*/*.json"))
    assert files, "no committed results: run `make bench`"
    for path in files:
        check_result(json.loads(path.read_text()), path.stem, path.parent.name)
    assert {p.stem for p in RESULTS.glob("cpu/*.json")} == set(BENCHMARKS)


def test_every_benchmark_figure_has_results_behind_it():
    scripts = sorted((fig_tools.FIGURES / "benchmarks").rglob("*.py"))
    assert scripts
    for script in scripts:
        patterns = [p for p in fig_tools.declared_inputs(script) if p.startswith("benchmarks/results/")]
        assert patterns, f"{script}: declares no results in INPUTS"
        for pattern in patterns:
            assert glob.glob(str(ROOT / pattern)), f"{script}: no results match {pattern}"


def test_cuda_without_a_gpu_fails_clearly():
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    proc = _run("run", "--device", "cuda", "--size", "tiny", "--results-dir", "/nonexistent")
    assert proc.returncode != 0
    assert "no CUDA device: run make bench-gpu on a GPU machine" in proc.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_tiny_run_on_cuda(tmp_path, name):
    """One test per benchmark, so a GPU run says which one failed."""
    proc = _run("run", "--device", "cuda", "--size", "tiny", "--only", name, "--results-dir", str(tmp_path))
    assert proc.returncode == 0, f"benchmark {name} failed on CUDA:\n{proc.stderr[-3000:]}"
    result = json.loads((tmp_path / "cuda" / f"{name}.json").read_text())
    check_result(result, name, "cuda")
    for case in result["cases"]:
        if name in ("freezing", "selective_detach"):
            assert case["memory"]["cuda_max_allocated_bytes"] > 0


def test_list_names_every_benchmark():
    proc = _run("list")
    assert proc.returncode == 0
    assert [line.split(":")[0] for line in proc.stdout.splitlines()] == list(BENCHMARKS)


def test_unknown_benchmark_is_refused():
    proc = _run("run", "--device", "cpu", "--only", "nope")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


def test_summary_statistics():
    from benchmarks.common import summarize

    s = summarize([5.0, 1.0, 3.0, 2.0, 4.0])
    assert (s["median"], s["q1"], s["q3"], s["iqr"], s["min"], s["max"]) == (3.0, 2.0, 4.0, 2.0, 1.0, 5.0)
    assert summarize([7.0])["iqr"] == 0.0


def test_a_median_typed_into_a_result_is_refused(tmp_path):
    import json

    from benchmarks import report

    src = report.RESULTS / "cpu" / "detach_vs_clone.json"
    data = json.loads(src.read_text(encoding="utf-8"))
    data["cases"][0]["timing"]["median"] *= 1.004  # still inside q1..q3
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "detach_vs_clone.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(report.ResultError, match=r"cases\[0\]\.timing\.median .* raw timings give"):
        report.load("detach_vs_clone", "cpu", tmp_path)
