"""``python -m tools``: the one command line of the site's tooling.

Each group lives in its package's ``cli.py`` and imports its work only when a
command runs, so ``--help`` is instant. A ``ToolError`` (bad input, with a message
naming the file and what to do) prints that message and exits 1, without a traceback.
"""

from __future__ import annotations

import sys

from tools.core.repo import environment_problem

if __name__ == "__main__" and "worker" not in sys.argv[1:3]:
    # python3 -m tools without the venv, or another torch on PYTHONPATH: one line, not
    # an ImportError (or a child's) traceback. Workers were checked by their parent.
    _problem = environment_problem()
    if _problem:
        print(_problem, file=sys.stderr)
        sys.exit(1)

import click

from tools.build.cli import build
from tools.chapters.apis.cli import apis
from tools.chapters.errors.cli import errors
from tools.chapters.faq.cli import faq
from tools.chapters.glossary.cli import glossary
from tools.chapters.patterns.cli import patterns
from tools.core.errors import ToolError
from tools.dev.cli import dev, new
from tools.downloads.cli import downloads
from tools.figures.cli import figures
from tools.snippets.cli import snippets
from tools.versions.cli import versions


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """The site's tooling: snippets, figures, generated chapters, downloads, versions."""


for group in (build, snippets, figures, faq, errors, apis, patterns, glossary, downloads, versions, new, dev):
    main.add_command(group)

if __name__ == "__main__":
    try:
        main(prog_name="python -m tools")
    except ToolError as err:
        print(err, file=sys.stderr)
        sys.exit(1)
