"""python -m benchmarks run --device cpu|cuda [--size tiny|full] [--only NAME ...]
                          [--threads N] [--results-dir DIR]

Runs the benchmarks and writes one JSON file per benchmark to
``<results-dir>/<device>/<name>.json`` (default ``benchmarks/results/``), with provenance
(machine, device, torch and Python versions, date, git commit, load average) and every
raw measurement. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

from . import BENCHMARKS
from .common import RESULTS, SCHEMA, SIZES, Context, load_average, provenance, write_result

NO_CUDA = "no CUDA device: run make bench-gpu on a GPU machine (torch.cuda.is_available() is False here)"


class Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.index = 0
        self.name = ""
        self.start = time.perf_counter()
        self.tty = sys.stderr.isatty()

    def begin(self, name: str) -> None:
        self.index += 1
        self.name = name
        self.bench_start = time.perf_counter()
        self("starting")

    def __call__(self, what: str) -> None:
        now = time.perf_counter()
        line = (
            f"[{self.index}/{self.total}] {self.name}: {what}"
            f"  ({now - self.bench_start:5.1f} s; total {now - self.start:5.1f} s)"
        )
        if self.tty:
            sys.stderr.write("\r\033[K" + line)
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def done(self, path: Path) -> None:
        self(f"done -> {path}")
        if self.tty:
            sys.stderr.write("\n")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run benchmarks and write results")
    run.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    run.add_argument(
        "--size",
        choices=SIZES,
        default="full",
        help="tiny: seconds, for tests; full: the published sizes (default)",
    )
    run.add_argument(
        "--only",
        action="append",
        choices=sorted(BENCHMARKS),
        metavar="NAME",
        help=f"run only this benchmark (repeatable): {', '.join(BENCHMARKS)}",
    )
    run.add_argument(
        "--results-dir",
        type=Path,
        default=RESULTS,
        help="where <device>/<name>.json go (default: benchmarks/results)",
    )
    run.add_argument(
        "--threads",
        type=int,
        default=None,
        help="torch.set_num_threads(N) before running (default: torch's choice)",
    )
    sub.add_parser("list", help="list the benchmarks")
    return parser


def _run_one(name: str, args: argparse.Namespace, device: torch.device, progress: Progress) -> None:
    """Run one benchmark and write its result, with the machine and load it ran under."""
    module = BENCHMARKS[name]
    progress.begin(name)
    ctx = Context(device=device, size=args.size, progress=progress)
    load_start = load_average()
    prov = provenance(device)
    start = time.perf_counter()
    body = module.run(ctx)
    prov["duration_s"] = round(time.perf_counter() - start, 2)
    prov["load_average"] = {
        "start": load_start,
        "end": load_average(),
        "note": "os.getloadavg(): 1, 5, 15 minute averages",
    }
    result = {
        "schema": SCHEMA,
        "benchmark": name,
        "title": module.TITLE,
        "device": args.device,
        "size": args.size,
        "provenance": prov,
        **body,
    }
    progress.done(write_result(result, args.results_dir / args.device))


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "list":
        for name, module in BENCHMARKS.items():
            print(f"{name}: {module.TITLE}")
        return 0
    if args.device == "cuda" and not torch.cuda.is_available():
        print(f"error: {NO_CUDA}", file=sys.stderr)
        return 2
    if args.threads is not None:
        if args.threads < 1:
            parser.error("--threads must be at least 1")
        torch.set_num_threads(args.threads)
    names = args.only or list(BENCHMARKS)
    progress = Progress(len(names))
    for name in names:
        _run_one(name, args, torch.device(args.device), progress)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
