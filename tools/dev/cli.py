"""``python -m tools new`` (scaffolds) and ``python -m tools dev`` (maintainer tools)."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def new() -> None:
    """Start something new with every file it needs."""


@new.command()
@click.argument("name")
def page(name: str) -> None:
    """A page NAME (<section>/<name>): zh and en pages, its snippet, its nav entry."""
    from tools.core.repo import rel
    from tools.dev.scaffold import new_page

    for path in new_page(name):
        print(f"wrote {rel(path)}")
    section, stem = name.split("/")
    print(
        f"next: edit the pages and the snippet, then "
        f".venv/bin/python -m tools snippets record snippets/{section}/{stem}/"
    )


@click.group()
def dev() -> None:
    """Tools for maintaining the checks themselves."""


@dev.command()
@click.argument("clone", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("faults", nargs=-1)
def drill(clone: Path, out: Path, faults: tuple[str, ...]) -> None:
    """Inject each fault into CLONE (a clone of this repository), run what a
    contributor runs, and write the table of caught?, seconds and message to OUT."""
    from tools.dev.fault_drill import drill as run_drill

    run_drill(clone, out, list(faults))


@dev.command(name="map")
def map_() -> None:
    """Rewrite CONTRIBUTING.md's map of tools/ from the docstrings."""
    from tools.core.repo import rel
    from tools.dev.contributing import write_map

    print(f"wrote {rel(write_map())}")
