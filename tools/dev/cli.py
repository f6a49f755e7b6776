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


@dev.command()
@click.option("--source", default=None, help="Repository to clone (default: this checkout).")
@click.option("--commit", default="HEAD", show_default=True, help="Commit to measure.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of the results (default benchmarks/loop-results/).",
)
def loop(source: str | None, commit: str, out: Path | None) -> None:
    """Time the contributor's loop on a clean clone: cold and warm make test, after a
    prose edit and a snippet edit, cold and warm builds, make serve's reload."""
    from tools.core.repo import ROOT, rel
    from tools.dev.loop import RESULTS
    from tools.dev.loop import loop as measure

    path = measure(source or str(ROOT), commit, out or RESULTS)
    print(f"wrote {rel(path)} and {rel(path.with_suffix('.md'))}")


@dev.command("zensical-config")
@click.argument("lang", type=click.Choice(["zh", "en"]))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
def zensical_config(lang: str, out: Path) -> None:
    """Write OUT: a one-language config for the weekly Zensical canary."""
    from tools.dev.canary import one_language_config

    one_language_config(lang, out)
