"""Where a build writes and where ``mkdocs serve`` listens, checked before building.

A full disk, a read-only folder or a taken port would otherwise stop the build half
way with an ``OSError`` traceback (after a whole build, for the port). The handler
``check_build_target`` (wired in tools/site/hooks.py) says in one line what is wrong
and what to do, before anything is built.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
from pathlib import Path

from tools.core.errors import ToolError

SITE_BYTES = 64 * 2**20  # the built site is ~25 MB; leave room for figures and search
_checked_port = False  # the server holds the port after the first build: check once


def site_problem(site_dir: Path | str) -> str | None:
    """Why the build cannot write ``site_dir`` (read-only, not a folder, too little
    room), or None."""
    target = Path(site_dir)
    existing = target
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    where = f"the build writes the site into {target}"
    if existing != target and not existing.is_dir():
        return f"{where}, but {existing} is a file: give another folder (-d DIR)"
    if not os.access(existing, os.W_OK):
        return f"{where}, which is read-only here: give a writable folder (-d DIR)"
    free = shutil.disk_usage(existing).free
    if free < SITE_BYTES:
        return (
            f"{where}, whose disk has {free // 2**20} MB free (the site with its figures takes "
            f"about 25 MB; the build asks for {SITE_BYTES // 2**20} MB): free some space, or build "
            "elsewhere (-d DIR)"
        )
    return None


def port_problem(host: str, port: int) -> str | None:
    """Why ``mkdocs serve`` could not listen on host:port, or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError as err:
            taken = err.errno == errno.EADDRINUSE
            why = "is taken (another mkdocs serve?)" if taken else f"cannot be used: {err.strerror}"
            return (
                f"{host}:{port} {why}. Stop the other server, or serve on another port: "
                f"make serve ADDR={host}:{port + 1}"
            )
    return None


def check_build_target(config):
    """on_config: the site folder can be written; under serve, the port is free."""
    global _checked_port
    problem = site_problem(config.site_dir)
    if problem:
        raise ToolError(problem)
    if os.environ.get("DETACH_SITE_SERVING") and not _checked_port and config.dev_addr:
        _checked_port = True
        problem = port_problem(config.dev_addr.host, int(config.dev_addr.port))
        if problem:
            from mkdocs.exceptions import Abort

            raise Abort(problem)  # not a build error shown on the page: serve cannot start
    return config
