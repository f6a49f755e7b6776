"""Command line for the per-page downloads (tools/downloads.py).

Usage:
    python -m tools.downloads_cli script LANG PAGE     # print the reader script
    python -m tools.downloads_cli notebook LANG PAGE   # print the notebook (JSON)
    python -m tools.downloads_cli write DIR            # all downloads under DIR/<lang>/
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import pages  # noqa: E402
from tools.downloads import all_downloads, notebook, script  # noqa: E402
from tools.downloads_data import DownloadError, page_code  # noqa: E402


def main(argv: list[str]) -> int:
    if argv[:1] in (["script"], ["notebook"]) and len(argv) == 3:
        code = page_code(argv[1], Path(argv[2]))
        sys.stdout.write(script(code) if argv[0] == "script" else notebook(code))
        return 0
    if argv[:1] == ["write"] and len(argv) == 2:
        for lang in pages.LANGS:
            for uri, text in all_downloads(lang, cuda=False).items():
                path = Path(argv[1]) / lang / uri.removeprefix(f"{lang}/")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print(path)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except DownloadError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(1) from None
