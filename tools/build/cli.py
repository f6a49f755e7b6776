"""``python -m tools build``: generate what the pages include before the engine runs,
and finish the pages it built."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def build() -> None:
    """Generate, then render (make build runs this before the engine)."""


@build.command()
@click.option("--force", is_flag=True, help="Regenerate even when no input changed.")
def generate(force: bool) -> None:
    """Write generated/ and overrides/generated/ from the data (only what changed)."""
    from tools.build.generate import generate as run
    from tools.core.repo import rel

    changed = run(force)
    for path in changed:
        print(f"wrote {rel(path)}")
    print(f"{len(changed)} file(s) changed")


@build.command()
@click.argument("site", type=click.Path(exists=True, file_okay=False, path_type=Path))
def finish(site: Path) -> None:
    """Apply the passes over a built SITE (the MkDocs hook does this after each build)."""
    from tools.build.finish import finish as run

    print(f"{run(site)} page(s) rewritten")
