"""The command line for figures.

Usage:
    python -m tools.figures build               # render every stale figure (into .cache/)
    python -m tools.figures render SCRIPT [DIR]  # render one script (default: ./figure-preview)

How figures are built and cached: ``tools.figure_build``; how one is drawn:
``tools.figure_render``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tools.figure_build import build_all
from tools.figure_render import render


def main(argv: list[str]) -> int:
    if argv == ["build"]:
        for uri in sorted(build_all()):
            print(uri)
        return 0
    if len(argv) in (2, 3) and argv[0] == "render":
        script = Path(argv[1]).resolve()
        if not script.is_file():
            print(f"No figure script at {argv[1]}", file=sys.stderr)
            return 2
        outdir = Path(argv[2]) if len(argv) == 3 else Path("figure-preview")
        for path in render(script, outdir):
            print(path)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
