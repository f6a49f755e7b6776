"""Shared machinery: timing, provenance, progress, result files."""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import torch
from torch.utils import benchmark as tbench

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
SCHEMA = 1
SIZES = ("tiny", "full")


# A tiny run (the test suite) only shows that the code runs: a token budget.
TINY_BUDGET_S = 0.05
TINY_MIN_BLOCKS = 3


@dataclass
class Context:
    """What a benchmark needs to know about the run."""

    device: torch.device
    size: str  # "tiny" or "full"
    progress: Callable[[str], None]

    @property
    def tiny(self) -> bool:
        return self.size == "tiny"

    @property
    def cuda(self) -> bool:
        return self.device.type == "cuda"

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize(self.device)


# --------------------------------------------------------------------------- timing
def _quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, med, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, med, q3


def summarize(values: list[float]) -> dict:
    q1, med, q3 = _quartiles(sorted(values))
    return {"median": med, "q1": q1, "q3": q3, "iqr": q3 - q1, "min": min(values), "max": max(values)}


def budget(ctx: Context, seconds: float, min_blocks: int) -> dict:
    """``time_many``'s budget for this run: as given at full size, a token one when tiny."""
    if ctx.tiny:
        return {"budget_s": TINY_BUDGET_S, "min_blocks": TINY_MIN_BLOCKS}
    return {"budget_s": seconds, "min_blocks": min_blocks}


def time_many(
    fns: dict[str, Callable[[], object]],
    ctx: Context,
    *,
    budget_s: float,
    min_blocks: int = 7,
    max_blocks: int = 50,
) -> dict[str, dict]:
    """Time several callables with ``torch.utils.benchmark.Timer``, interleaved block by block.

    Each callable gets a block size (calls per block) such that ``min_blocks`` of its blocks
    take about ``budget_s / len(fns)``. Then rounds run, one block of each callable per round
    (the order rotates every round), until ``min_blocks`` rounds are done and ``budget_s`` is
    spent (at most ``max_blocks`` rounds). Interleaving spreads a change of machine load over
    all callables instead of biasing one. Each raw value is the mean time of one call within a
    block; median and IQR are over blocks. The Timer synchronizes CUDA around each block.
    """
    threads = torch.get_num_threads()
    timers = {k: tbench.Timer(stmt="fn()", globals={"fn": fn}, num_threads=threads) for k, fn in fns.items()}
    number = {}
    for k, timer in timers.items():
        timer.timeit(1)  # warm-up (allocator, caches, lazy init)
        once = min(timer.timeit(1).raw_times[0] for _ in range(3))
        number[k] = max(1, int(budget_s / len(fns) / min_blocks / max(once, 1e-9)))
    raw: dict[str, list[float]] = {k: [] for k in fns}
    order = list(fns)
    start = time.perf_counter()
    rounds = 0
    while rounds < min_blocks or (time.perf_counter() - start < budget_s and rounds < max_blocks):
        for k in order:
            raw[k].append(timers[k].timeit(number[k]).raw_times[0] / number[k])
        order = order[1:] + order[:1]
        rounds += 1
    return {k: {"unit": "s", "number_per_block": number[k], "raw": raw[k], **summarize(raw[k])} for k in fns}


# --------------------------------------------------------------------------- provenance
def cuda_peak(step: Callable[[], object], ctx: Context) -> dict:
    """Peak CUDA memory of one call of ``step`` after a warm-up call."""
    step()
    ctx.sync()
    torch.cuda.reset_peak_memory_stats(ctx.device)
    base = torch.cuda.memory_allocated(ctx.device)
    step()
    ctx.sync()
    return {
        "cuda_max_allocated_bytes": torch.cuda.max_memory_allocated(ctx.device),
        "cuda_peak_above_start_bytes": torch.cuda.max_memory_allocated(ctx.device) - base,
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ram_bytes() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _git() -> dict:
    def run(*args: str) -> str | None:
        try:
            return subprocess.run(
                ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None

    commit = run("rev-parse", "HEAD")
    status = run("status", "--porcelain", "--untracked-files=no")
    code = run("status", "--porcelain", "--", "benchmarks/*.py", "src/")  # the code that measured
    return {
        "commit": commit,
        "dirty": bool(status) if status is not None else None,
        "benchmark_code_dirty": bool(code) if code is not None else None,
    }


def load_average() -> list[float] | None:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except OSError:
        return None


def provenance(device: torch.device) -> dict:
    dev: dict = {"type": device.type}
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        dev.update(
            name=props.name,
            total_memory_bytes=props.total_memory,
            capability=f"{props.major}.{props.minor}",
            cuda_runtime=torch.version.cuda,
            driver=_nvidia_driver(),
        )
    else:
        dev.update(name=_cpu_model())
    return {
        "machine": {
            "cpu_model": _cpu_model(),
            "logical_cores": os.cpu_count(),
            "ram_bytes": _ram_bytes(),
            "os": platform.platform(),
        },
        "device": dev,
        "torch": torch.__version__,
        "torch_num_threads": torch.get_num_threads(),
        "python": platform.python_version(),
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "git": _git(),
        "command": " ".join(["python", "-m", "benchmarks", *sys.argv[1:]]),
    }


def _nvidia_driver() -> str | None:
    try:
        return subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


# --------------------------------------------------------------------------- results
def write_result(result: dict, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{result['benchmark']}.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
