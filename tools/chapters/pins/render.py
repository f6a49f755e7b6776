"""The line that replaces a ``<!-- pytorch-pins: ID ... -->`` marker on a page:
the PyTorch tests that pin a site claim, each linked to its line at the pinned
commit, in the page's language; a pin whose tests pin only part of the page's
statement says which part (``only:``). The data: ``tools.chapters.pins.load``.
"""

from __future__ import annotations

import re

from tools.chapters.pins.load import DATA, PinError, Pins, Test
from tools.core import escape  # the one escaping helper
from tools.core.i18n import UI

LABELS = UI["pins"]


def _at(pins: Pins, file: str, lang: str) -> str:
    return LABELS[lang]["at"].format(file=escape.attribute(file), commit=pins.commits[file][:7])


def _links(pins: Pins, tests: tuple[Test, ...], lang: str, with_file: bool = True) -> str:
    lab = LABELS[lang]
    groups = []
    for file in dict.fromkeys(t.file for t in tests):
        links = [
            f'<a href="{escape.attribute(pins.url(t))}" '
            f'title="{escape.attribute(t.cls)}.{escape.attribute(t.name)}">'
            f"<code>{escape.attribute(t.name)}</code></a>"
            for t in tests
            if t.file == file
        ]
        at = _at(pins, file, lang) if with_file else ""
        groups.append(lab["sep"].join(links) + at)
    return lab["group"].join(groups)


def _subject(text: str) -> str:
    """``"`detach()`"`` -> ``<code>detach()</code>``; plain text escaped."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape.attribute(text))


def render(pins: Pins, ids: list[str], lang: str) -> str:
    """The HTML line that replaces a marker naming ``ids``."""
    if lang not in LABELS:
        raise PinError(f"lang must be one of {list(LABELS)}, got {lang!r}")
    unknown = [i for i in ids if i not in pins.pins]
    if unknown:
        raise PinError(f"unknown pin id(s) {unknown}; see {DATA.name}")
    lab = LABELS[lang]
    chosen = [pins.pins[i] for i in ids]
    if len(chosen) == 1 and chosen[0].only:
        part = _subject(chosen[0].only[lang])
        body = lab["part"].format(part=part) + _links(pins, chosen[0].tests, lang)
    elif len(chosen) == 1:
        body = lab["one"] + _links(pins, chosen[0].tests, lang)
    else:
        files = {t.file for pin in chosen for t in pin.tests}
        one_file = len(files) == 1
        at = _at(pins, files.pop(), lang) if one_file else ""
        parts = []
        for pin in chosen:
            label = _subject(pin.subject or pin.id)
            if pin.only:
                label += lab["only"].format(part=_subject(pin.only[lang]))
            links = _links(pins, pin.tests, lang, with_file=not one_file)
            parts.append(label + lab["colon"] + links)
        body = lab["many"].format(at=at) + "".join("<br>" + p for p in parts)
    return f'<p class="pytorch-pins"><small>{body}</small></p>'
