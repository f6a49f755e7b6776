"""The command line for the torch-version matrix: snippets under other torch releases.

``make test-versions`` (noxfile.py) runs this module in one venv per torch
release::

    python -m tools.torch_versions run [--expect 2.5.1] [--out FILE]
    python -m tools.torch_versions summary       # counts per version, stale entries

How a release is run: ``tools.torch_versions_run``; what the result files
(``data/torch-versions/<torch>.json``) hold: ``tools.torch_versions_data``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.torch_versions_data import (
    DATA,
    base_version,
    file_hash,
    load_all,
    rel,
    snippet_paths,
    stale_or_missing,
    summarize,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.torch_versions")
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run every snippet under this interpreter's torch")
    r.add_argument("--expect", help="fail unless torch is this release")
    r.add_argument("--out", type=Path, help="result file (default data/torch-versions/<torch>.json)")
    r.add_argument(
        "--merge",
        action="store_true",
        help="update only the given snippets' entries in the existing file "
        "(no paths: the stale and missing ones)",
    )
    r.add_argument("paths", nargs="*", type=Path, help="only these snippets")
    sub.add_parser("summary", help="counts per version from data/torch-versions/")
    return parser


def _installed_version() -> str:
    import torch

    return base_version(torch.__version__)


def run(args: argparse.Namespace) -> int:
    from tools.torch_versions_run import run_all

    only = []
    for p in args.paths:
        only += sorted(p.resolve().rglob("*.py")) if p.is_dir() else [p.resolve()]
    target = args.out or DATA / f"{_installed_version()}.json"
    if args.merge and not target.exists():
        print(f"--merge: no {rel(target)} yet; running every snippet")
        args.merge = False
    elif args.merge and not only:
        only = stale_or_missing(target)
        if not only:
            print("--merge: every entry is current; nothing to run")
            return 0
    run_all(args.out, args.expect, only or None, merge=args.merge)
    return 0


def summary() -> int:
    current = {rel(p): file_hash(p) for p in snippet_paths()}
    for version, data in load_all().items():
        helper = data.get("helper_tests", {})
        print(
            f"{version:8} {data['torch']:14} {summarize(data, current)} helper tests "
            f"{helper.get('passed')}/{helper.get('passed', 0) + helper.get('failed', 0)}"
            f" ({data['date']}, {data.get('seconds')} s)"
        )
    return 0


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    return run(args) if args.cmd == "run" else summary()


if __name__ == "__main__":
    from tools.repo import ROOT

    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main(sys.argv[1:]))
