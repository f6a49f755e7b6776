"""The command line for the FAQ chapter, generated from ``data/questions.yml``.

Usage:
    python -m tools.faq write   # regenerate docs/zh/faq/ and docs/en/faq/
    python -m tools.faq check   # fail if the committed pages differ from the data

The data and its validation: ``tools.faq_data``; the pages: ``tools.faq_render``;
the MkDocs hook that serves them fresh: ``tools/faq_hook.py``.
"""

from __future__ import annotations

import sys

from tools.faq_data import FaqError
from tools.faq_render import WRITE_HINT, stale, write
from tools.repo import rel


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("write", "check"):
        print(__doc__.split("Usage:")[1].split("\n\n")[0].rstrip(), file=sys.stderr)
        return 2
    try:
        if argv[0] == "write":
            for path in write():
                print(f"wrote {rel(path)}")
            return 0
        bad = stale()
    except FaqError as err:
        print(err, file=sys.stderr)
        return 1
    if bad:
        print("FAQ pages out of date: " + ", ".join(bad) + f"\nrun: {WRITE_HINT}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
