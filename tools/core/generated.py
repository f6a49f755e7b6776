"""Pages generated from data and committed (the FAQ, the training patterns): which of
them differ from their data, and rewriting them.

A chapter's ``render.pages()`` maps each generated page to its Markdown; these two
functions compare that map with the files under ``docs/<lang>/<folder>/`` and write it.
"""

from __future__ import annotations

from pathlib import Path

from tools.core.repo import DOCS, LANGS, ROOT


def stale(generated: dict[Path, str], folder: str, source: str) -> list[str]:
    """Repo-relative paths of the committed pages that differ from ``generated``, and of
    pages in ``docs/<lang>/<folder>/`` that nothing generates (``source`` names what a
    page comes from, such as "topic", for the message)."""
    bad = [
        path.relative_to(ROOT).as_posix()
        for path, text in generated.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
    known = {p.resolve() for p in generated}
    for lang in LANGS:
        for extra in sorted((DOCS / lang / folder).glob("*.md")):
            if extra.resolve() not in known:
                bad.append(f"{extra.relative_to(ROOT).as_posix()} (no {source} in the data; delete it)")
    return bad


def write(generated: dict[Path, str]) -> list[Path]:
    """Write each page whose file differs from its Markdown; return those written."""
    from tools.core.files import write_text

    written = []
    for path, text in generated.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_text(path, text)  # whole or not at all
            written.append(path)
    return written
