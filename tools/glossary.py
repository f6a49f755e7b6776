"""The command line for the glossary's search words.

Usage:
    python -m tools.glossary words    # rewrite data/search-words.zh.txt

The glossary as data, and the words made from it: ``tools.glossary_data``.
"""

from __future__ import annotations

import sys

from tools.glossary_data import ROOT, WORDS, terms, words_file_text


def main(argv: list[str]) -> int:
    if argv != ["words"]:
        print(__doc__, file=sys.stderr)
        return 2
    WORDS.write_text(words_file_text(terms("zh")), encoding="utf-8")
    print(f"wrote {WORDS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
