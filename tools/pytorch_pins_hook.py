"""MkDocs hook: replace each ``<!-- pytorch-pins: ID ... -->`` marker with a
small localized line that links the PyTorch tests pinning the claim.

The data (``data/upstream-tests.yml``) is validated once per build by
``tools.pytorch_pins.load``; a bad entry, an unknown id or a pin placed on
the wrong page fails the build with a ``PluginError`` naming it. The line
itself comes from ``tools.pytorch_pins_render``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # hooks are loaded by path, not as a package
    sys.path.insert(0, str(_ROOT))

from tools import pytorch_pins  # noqa: E402
from tools.pytorch_pins_render import render  # noqa: E402
from tools.repo import LANGS  # noqa: E402

_loaded: dict[str, pytorch_pins.Pins] = {}


def on_pre_build(config) -> None:
    _loaded.clear()  # mkdocs serve rebuilds in the same process
    try:
        _loaded["pins"] = pytorch_pins.load()
    except pytorch_pins.PinError as err:
        raise PluginError(f"data/upstream-tests.yml: {err}") from None


def on_page_markdown(markdown: str, page, config, files) -> str:
    if "pytorch-pins" not in markdown:
        return markdown
    src = page.file.src_uri
    first, _, rest = src.partition("/")
    lang = first if first in LANGS else str(config.theme.get("language") or "zh")
    page_path = rest if first in LANGS else src
    pins = _loaded.get("pins") or pytorch_pins.load()

    def replace(match) -> str:
        ids = match["ids"].split()
        try:
            line = render(pins, ids, lang)
        except pytorch_pins.PinError as err:
            raise PluginError(f"{src}: {err}") from None
        wrong = [i for i in ids if pins.pins[i].page != page_path]
        if wrong:
            raise PluginError(
                f"{src}: pin(s) {wrong} belong on another page (see 'page:' in data/upstream-tests.yml)"
            )
        return line

    return pytorch_pins.MARKER.sub(replace, markdown)
