"""``python -m tools build``: generate what the pages include, before the engine runs."""

from __future__ import annotations

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
