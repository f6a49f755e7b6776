"""The stamp on the first line of a recorded output: which code produced it.

    # recorded from code sha256:3f2a9c0d1e4b5a67 with torch 2.13.0

The hash covers the snippet file's bytes. The build refuses a record whose hash no
longer matches its snippet (tools/site/checks.py), and ``check`` tells "the code
changed" apart from "the output changed". The line sits outside every section, so
no page shows it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

_STAMP = re.compile(r"^# recorded from code sha256:(?P<hash>[0-9a-f]{16}) with torch (?P<torch>\S+)\n")


def file_hash(path: Path) -> str:
    """SHA-256 (hex) of a snippet file's bytes: what records and version results are keyed on."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def code_hash(snippet: Path) -> str:
    """The stamp's short form of ``file_hash``."""
    return file_hash(snippet)[:16]


def torch_version() -> str:
    from importlib import metadata

    return metadata.version("torch")


def stamp_line(snippet: Path, torch: str | None = None) -> str:
    return f"# recorded from code sha256:{code_hash(snippet)} with torch {torch or torch_version()}\n"


def split(record_text: str) -> tuple[dict[str, str] | None, str]:
    """(stamp fields or None, the record without its stamp line)."""
    m = _STAMP.match(record_text)
    if not m:
        return None, record_text
    return {"hash": m["hash"], "torch": m["torch"]}, record_text[m.end() :]


def stale_reason(snippet: Path, record: Path) -> str | None:
    """Why ``record`` cannot be the output of ``snippet`` as it is now, or None."""
    stamp, _ = split(record.read_text(encoding="utf-8"))
    if stamp is None:
        return "it carries no stamp of the code that produced it (recorded by an older tool)"
    now = code_hash(snippet)
    if stamp["hash"] != now:
        return f"the snippet changed since it was recorded (code sha256 {stamp['hash']} then, {now} now)"
    return None
