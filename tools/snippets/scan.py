"""What a published file must not carry of the machine that made it.

Snippets, their records and the page downloads are published as they are. ``leaks``
finds in a text what belongs to the machine, not to the lesson:

- the value of an environment variable whose name says it is a secret (``*TOKEN*``,
  ``*KEY*``, ``*SECRET*``, ``*PASSWORD*``, ...), e.g. a CI token a snippet printed;
- the user's login name and the host name (a personal one: ``root``, ``runner`` and the
  like say nothing about anyone);
- an absolute path outside the interpreter (the venv and the standard library):
  an author's ``/Users/alice/...`` or ``/home/...``, the checkout, the temp folder.

``record`` refuses a run whose record or code leaks (``refuse_leaks``); the build
scans every published snippet, record and download (``tools.pages.checks``).
"""

from __future__ import annotations

import getpass
import os
import re
import socket
import sys
from functools import cache

from tools.snippets.source import SnippetError

SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|PRIVATE|KEY|AUTH", re.I)
MIN_SECRET = 8  # shorter values ("1", "true") are not secrets and would match anywhere
# Login and host names that name nobody: service accounts and generic machines.
GENERIC_NAMES = {
    "root", "runner", "admin", "user", "ubuntu", "debian", "jovyan", "vscode", "codespace",
    "localhost", "docker", "builder", "build", "ci", "vm", "node", "app", "nobody",
}  # fmt: skip
# An absolute path of two parts or more, not inside a word, URL or relative path.
_POSIX_PATH = re.compile(r"(?<![\w.~\-/:\\])/(?:[\w.\-@+]+/)+[\w.\-@+]*")
_WINDOWS_PATH = re.compile(r"(?<![\w])[A-Za-z]:\\[\w.\-@+ ]{2,}\\[\w.\-@+ ]*")
ALLOWED_PATHS = ("/dev/", "/proc/self/")  # the same on every reader's machine


def secret_values(environ: dict[str, str] | None = None) -> dict[str, str]:
    """value -> variable name, for every environment variable named like a secret."""
    env = os.environ if environ is None else environ
    return {v: k for k, v in env.items() if SECRET_NAME.search(k) and len(v.strip()) >= MIN_SECRET}


@cache
def identity() -> dict[str, str]:
    """The personal names of this machine: what -> value ("user name" -> "alice")."""
    out = {}
    names = {"user name": _safe(getpass.getuser), "host name": _safe(socket.gethostname)}
    for what, value in names.items():
        for part in {value, value.split(".")[0]} if value else ():
            if len(part) >= 3 and part.lower() not in GENERIC_NAMES:
                out[part] = what
    return out


def _safe(fn) -> str:
    try:
        return fn() or ""
    except Exception:  # no user in the password database (a container), no host name
        return ""


def _interpreter_roots() -> tuple[str, ...]:
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    real = {os.path.realpath(r) for r in roots}
    return tuple(sorted(r.rstrip("/") + "/" for r in roots | real if r and r != "/"))


def foreign_paths(text: str) -> list[str]:
    """Absolute paths in ``text`` outside the interpreter and the allowed places."""
    inside = _interpreter_roots()
    found = []
    for m in [*_POSIX_PATH.finditer(text), *_WINDOWS_PATH.finditer(text)]:
        path = m.group(0)
        if path.startswith(ALLOWED_PATHS) or path.startswith(inside):
            continue
        found.append(path)
    return found


def leaks(text: str, environ: dict[str, str] | None = None) -> list[tuple[int, str]]:
    """(line number, what) for each piece of the machine in ``text``."""
    out = []
    secrets = secret_values(environ)
    who = identity()
    if not (any(v in text for v in secrets) or any(v in text for v in who) or foreign_paths(text)):
        return out  # the common case, at the cost of one pass
    for no, line in enumerate(text.splitlines(), 1):
        for value, name in secrets.items():
            if value in line:
                out.append((no, f"the value of the environment variable ${name} (a secret)"))
        for value, what in who.items():
            if re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", line):
                out.append((no, f"this machine's {what} {value!r}"))
        for path in foreign_paths(line):
            out.append((no, f"the absolute path {path!r} (it exists on this machine only)"))
    return out


FIX = (
    "Published files must not carry anything of the machine they were made on: print "
    "what the lesson needs (shapes, values, names of your own), never os.environ, "
    "getpass.getuser(), socket.gethostname() or a path of your folders; make files "
    "in a tempfile.TemporaryDirectory() and print their names relative to it."
)


def problems(name: str, text: str, environ: dict[str, str] | None = None) -> list[str]:
    """One message per leak, naming ``name`` (a repository path) and the line."""
    return [f"{name}:{no}: holds {what}." for no, what in leaks(text, environ)]


def refuse_leaks(snippet, record_text: str) -> None:
    """Raise a ToolError when the snippet's code or its new record leaks the machine."""
    from tools.core.repo import read_text, rel

    found = problems(snippet.rel, read_text(snippet.path))
    found += problems(rel(snippet.record_path), record_text)
    if found:
        raise LeakError("\n".join(found[:5]) + ("\n…" if len(found) > 5 else "") + "\n" + FIX)


class LeakError(SnippetError):
    """A published file carries a secret, a personal name or a path of this machine."""
