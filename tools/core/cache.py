"""A content-addressed store for build steps whose result depends only on their inputs.

The build repeats the same expensive work on every run: Pygments highlights the same
snippets (twice: zh and en embed the same code), Material's search plugin parses and
segments the same page HTML, and the download files are made from the same pages.
Each of those results is stored here under a key that hashes *all* of its inputs and
the versions of the code that computes it, so a hit is the same text a fresh run
would give and a changed input is simply a miss. Nothing is ever invalidated by hand;
``rm -rf .cache/build`` (or ``BUILD_CACHE=off``) starts afresh.

The store is one SQLite file, safe when two builds (e.g. two test workers) share it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from importlib import metadata
from pathlib import Path

from tools.core.repo import ROOT

CACHE_FILE = ROOT / ".cache" / "build" / "cache.sqlite"
FORMAT = 1  # bump when the meaning of a stored value changes
MAX_BYTES = 256 * 2**20  # edits under `mkdocs serve` only add entries: start afresh past this

_connection: sqlite3.Connection | None = None


def enabled(kind: str = "") -> bool:
    """Off with BUILD_CACHE=off; BUILD_CACHE_BYPASS=downloads,... skips some kinds."""
    if os.environ.get("BUILD_CACHE", "on").lower() in ("off", "0", "no"):
        return False
    return kind not in os.environ.get("BUILD_CACHE_BYPASS", "").split(",")


def version(*distributions: str) -> str:
    """The installed versions of ``distributions``, for keys."""
    found = []
    for name in distributions:
        try:
            found.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}==none")
    return ",".join(found)


def key(*parts: object) -> str:
    """A digest of ``parts`` (strings, bytes, or anything with a stable ``repr``)."""
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for part in parts:
        data = part if isinstance(part, bytes) else (part if isinstance(part, str) else repr(part)).encode()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def files_key(paths: list[Path]) -> str:
    """A digest of the names and contents of ``paths``."""
    return key(*(item for p in sorted(paths) for item in (p.relative_to(ROOT).as_posix(), p.read_bytes())))


def _db() -> sqlite3.Connection:
    global _connection
    if _connection is None:
        CACHE_FILE.parent.mkdir(parents=True, exist_ok=True)
        if CACHE_FILE.is_file() and CACHE_FILE.stat().st_size > MAX_BYTES:
            CACHE_FILE.unlink()
        try:
            _connection = _open()
        except sqlite3.OperationalError:  # locked or unwritable: a miss each time, as before
            raise
        except sqlite3.DatabaseError:  # damaged ("not a database"): replaced once, then refilled
            for suffix in ("", "-wal", "-shm"):
                Path(f"{CACHE_FILE}{suffix}").unlink(missing_ok=True)
            _connection = _open()
    return _connection


def _open() -> sqlite3.Connection:
    connection = sqlite3.connect(CACHE_FILE, timeout=60, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS entry (kind TEXT, key TEXT, value TEXT, PRIMARY KEY (kind, key))"
        )
    except sqlite3.DatabaseError:
        connection.close()
        raise
    return connection


def get(kind: str, digest: str) -> str | None:
    if not enabled(kind):
        return None
    try:
        row = _db().execute("SELECT value FROM entry WHERE kind = ? AND key = ?", (kind, digest)).fetchone()
    except sqlite3.DatabaseError:  # a damaged or locked cache is a miss, never an error
        return None
    return None if row is None else row[0]


def put(kind: str, digest: str, value: str) -> None:
    if not enabled(kind):
        return
    with contextlib.suppress(sqlite3.DatabaseError):
        _db().execute("INSERT OR REPLACE INTO entry VALUES (?, ?, ?)", (kind, digest, value))
