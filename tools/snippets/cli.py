"""``python -m tools snippets``: record, check or run snippets.

What a snippet is: ``tools.snippets.source``; how it runs: ``tools.snippets.runner``;
records: ``tools.snippets.records``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

PATHS = click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))


@click.group()
def snippets() -> None:
    """Run snippets and keep their recorded outputs (.out) current."""


def _targets(paths: tuple[Path, ...]) -> list[Path]:
    from tools.snippets.source import all_snippets, expand_paths

    return expand_paths(list(paths)) if paths else all_snippets()  # a folder without snippets is an error


def _record_or_check(cmd: str, targets: list[Path]) -> int:
    from tools.core.repo import cuda_available, rel
    from tools.snippets.records import VARIANT, check, record
    from tools.snippets.runner import ForkServer, random_hash_seed
    from tools.snippets.source import SnippetError, parse

    # record runs each snippet twice, the second time as another machine would
    # (VARIANT): output that differs is refused. check runs that variant.
    server = ForkServer() if cmd == "record" else ForkServer(env=VARIANT)
    second = ForkServer(random_hash_seed(avoid=server.hash_seed), env=VARIANT) if cmd == "record" else None
    failures = 0
    try:
        for path in targets:
            try:  # a malformed snippet is reported and the others still run
                snippet = parse(path)
                if snippet.needs_cuda and not cuda_available():
                    print(f"skip     {snippet.rel} (needs CUDA; record it on a GPU machine)")
                    continue
                if cmd == "record":
                    changed = record(path, server, second)
                    print(f"{'updated' if changed else 'same':8} {snippet.rel}")
                else:
                    check(path, server)
                    print(f"ok       {snippet.rel}")
            except SnippetError as err:
                failures += 1
                print(f"FAILED   {rel(path)}\n{err}\n", file=sys.stderr)
    finally:
        servers = [server] + ([second] if second is not None else [])
        for each in servers:  # both exit at once
            each.stop()
        for each in servers:
            each.close()
    if failures:
        print(f"{failures} of {len(targets)} snippet(s) FAILED (messages above).", file=sys.stderr)
    return 1 if failures else 0


@snippets.command()
@PATHS
def record(paths: tuple[Path, ...]) -> None:
    """Refresh the records of PATHS (snippets or folders; default: all)."""
    sys.exit(_record_or_check("record", _targets(paths)))


@snippets.command()
@PATHS
def check(paths: tuple[Path, ...]) -> None:
    """Compare the records of PATHS with fresh runs (default: all)."""
    sys.exit(_record_or_check("check", _targets(paths)))


@snippets.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def run(path: Path) -> None:
    """Run one snippet and print what its record would hold."""
    from tools.snippets.records import fresh

    sys.stdout.write(fresh(path))


@snippets.group(hidden=True)
def worker() -> None:
    """The child side of a run (started by tools.snippets.runner, never by hand)."""


@worker.command()
def serve() -> None:
    """The fork server: import torch once, fork one child per request on stdin."""
    from tools.snippets import worker as child

    child.serve()


@worker.command(name="exec")
@click.argument("snippet", type=click.Path(path_type=Path))
@click.argument("out_dir", type=click.Path(path_type=Path))
def exec_(snippet: Path, out_dir: Path) -> None:
    """Run SNIPPET's chunks, one output file each under OUT_DIR, then exit."""
    from tools.snippets import worker as child
    from tools.snippets.source import parse

    child.exec_chunks(parse(snippet), out_dir)
