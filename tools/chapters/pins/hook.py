"""MkDocs handlers: replace each ``<!-- pytorch-pins: ID ... -->`` marker with a
small localized line that links the PyTorch tests pinning the claim.

The data (``data/upstream-tests.yml``) is validated once per build by
``tools.chapters.pins.load.load``; a bad entry, an unknown id or a pin placed on
the wrong page fails the build with a ``ToolError`` naming it. The line
itself comes from ``tools.chapters.pins.render``.
"""

from __future__ import annotations

from tools.chapters.pins import load as pytorch_pins
from tools.chapters.pins.render import render
from tools.core.errors import ToolError
from tools.core.repo import page_lang

_loaded: dict[str, pytorch_pins.Pins] = {}


def load_pins(config) -> None:
    _loaded.clear()  # mkdocs serve rebuilds in the same process
    try:
        _loaded["pins"] = pytorch_pins.load()
    except pytorch_pins.PinError as err:
        raise ToolError(str(err)) from None  # names file:line, entry and fix


def add_pin_lines(markdown: str, page, config, files) -> str:
    if "pytorch-pins" not in markdown:
        return markdown
    src = page.file.src_uri
    lang, page_path = page_lang(src, config)
    pins = _loaded.get("pins") or pytorch_pins.load()

    def replace(match) -> str:
        ids = match["ids"].split()
        try:
            line = render(pins, ids, lang)
        except pytorch_pins.PinError as err:
            raise ToolError(f"{src}: {err}") from None
        wrong = [i for i in ids if pins.pins[i].page != page_path]
        if wrong:
            raise ToolError(
                f"{src}: pin(s) {wrong} belong on another page (see 'page:' in data/upstream-tests.yml)"
            )
        return line

    return pytorch_pins.MARKER.sub(replace, markdown)
