"""The command line for snippets: record, check or run them.

Usage:
    python -m tools.snippets record [PATH ...]   # refresh records (default: all snippets;
                                                 # a folder means the snippets under it)
    python -m tools.snippets check  [PATH ...]   # compare records with fresh runs
    python -m tools.snippets run PATH            # run one and print its record

What a snippet is: ``tools.snippet_source``; how it runs: ``tools.snippet_runner``;
records: ``tools.snippet_records``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tools.repo import cuda_available
from tools.snippet_records import check, fresh, record
from tools.snippet_runner import ForkServer, random_hash_seed
from tools.snippet_source import SnippetError, all_snippets, expand_paths, parse

COMMANDS = ("record", "check", "run")


def _record_or_check(cmd: str, targets: list[Path]) -> int:
    server = ForkServer()
    # record runs each snippet twice, under two hash seeds: output that differs is refused
    second = ForkServer(random_hash_seed(avoid=server.hash_seed)) if cmd == "record" else None
    failures = 0
    try:
        for path in targets:
            snippet = parse(path)
            if snippet.needs_cuda and not cuda_available():
                print(f"skip     {snippet.rel} (needs CUDA; record it on a GPU machine)")
                continue
            try:
                if cmd == "record":
                    changed = record(path, server, second)
                    print(f"{'updated' if changed else 'same':8} {snippet.rel}")
                else:
                    check(path, server)
                    print(f"ok       {snippet.rel}")
            except SnippetError as err:
                failures += 1
                print(f"FAILED   {snippet.rel}\n{err}\n", file=sys.stderr)
    finally:
        servers = [server] + ([second] if second is not None else [])
        for each in servers:  # both exit at once
            each.stop()
        for each in servers:
            each.close()
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, targets = argv[0], expand_paths([Path(a) for a in argv[1:]]) or all_snippets()
    if cmd == "run":
        if len(targets) != 1:
            print("run takes exactly one snippet path", file=sys.stderr)
            return 2
        try:
            sys.stdout.write(fresh(targets[0]))
        except SnippetError as err:
            print(f"FAILED   {targets[0]}\n{err}", file=sys.stderr)
            return 1
        return 0
    return _record_or_check(cmd, targets)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
