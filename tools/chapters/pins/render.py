"""The PyTorch tests that pin a site claim, each linked to its line at the pinned
commit, in the page's language, for the page's Sources list (tools/build/machinery.py);
a pin whose tests pin only part of the page's statement says which part (``only:``).
The data: ``tools.chapters.pins.load``.
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


def tests_html(pins: Pins, ids: list[str], lang: str) -> str:
    """The tests that pin ``ids``, linked, for a page's Sources list
    (tools/build/machinery.py): ``test_a, test_b (file at commit)``; several pins
    under one heading are named by their subjects."""
    unknown = [i for i in ids if i not in pins.pins]
    if unknown:
        raise PinError(f"unknown pin id(s) {unknown}; see {DATA.name}")
    lab = LABELS[lang]
    chosen = [pins.pins[i] for i in ids]
    parts = []
    for pin in chosen:
        links = _links(pins, pin.tests, lang)
        if pin.only:
            links += lab["only"].format(part=_subject(pin.only[lang]))
        if len(chosen) > 1:
            links = _subject(pin.subject or pin.id) + lab["colon"] + links
        parts.append(links)
    return lab["group"].join(parts)
