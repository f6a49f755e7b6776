"""``python -m tools versions``: snippets under other torch releases.

``make test-versions`` (noxfile.py) runs ``versions run`` in one venv per torch
release. How a release is run: ``tools.versions.run``; what the result files
(``data/torch-versions/<torch>.json``) hold: ``tools.versions.results``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.group()
def versions() -> None:
    """The torch-version matrix in data/torch-versions/."""


def _installed_version() -> str:
    import torch

    from tools.versions.results import base_version

    return base_version(torch.__version__)


@versions.command()
@click.option("--expect", help="Fail unless torch is this release.")
@click.option(
    "--out", type=click.Path(path_type=Path), help="Result file (default data/torch-versions/<torch>.json)."
)
@click.option(
    "--merge",
    is_flag=True,
    help="Update only the given snippets' entries in the existing file "
    "(no paths: the stale and missing ones).",
)
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
def run(expect: str | None, out: Path | None, merge: bool, paths: tuple[Path, ...]) -> None:
    """Run every snippet (or PATHS) under this interpreter's torch."""
    from tools.core.repo import ROOT
    from tools.versions.results import DATA, rel, stale_or_missing

    sys.path.insert(0, str(ROOT / "src"))
    from tools.versions.run import run_all

    only: list[Path] = []
    for p in paths:
        only += sorted(p.resolve().rglob("*.py")) if p.is_dir() else [p.resolve()]
    target = out or DATA / f"{_installed_version()}.json"
    if merge and not target.exists():
        print(f"--merge: no {rel(target)} yet; running every snippet")
        merge = False
    elif merge and not only:
        only = stale_or_missing(target)
        if not only:
            print("--merge: every entry is current; nothing to run")
            return
    run_all(out, expect, only or None, merge=merge)


@versions.command()
def summary() -> None:
    """Counts per release from data/torch-versions/, stale entries included."""
    from tools.versions.results import file_hash, load_all, missing_snippets, rel, snippet_paths, summarize

    current = {rel(p): file_hash(p) for p in snippet_paths()}
    for version, data in load_all().items():
        helper = data.get("helper_tests", {})
        print(
            f"{version:8} {data['torch']:14} {summarize(data, current)} helper tests "
            f"{helper.get('passed')}/{helper.get('passed', 0) + helper.get('failed', 0)}"
            f" ({data['date']}, {data.get('seconds')} s)"
        )
        missing = missing_snippets(data, current)
        if missing:
            names = ", ".join(missing)
            print(f"         not yet run on {version} (checked on the pinned torch only): {names}")
            print(f"         run them: make test-versions TORCH={version} ARGS=--merge")
    from tools.versions import differences as why
    from tools.versions.results import load_matrix

    matrix = load_matrix()
    problems = why.problems(matrix, matrix.differences)
    print(f"{len(matrix.differences.entries)} classes in {rel(why.PATH)}; {len(problems)} problem(s)")
    for line in problems:
        print(f"  {line}")
