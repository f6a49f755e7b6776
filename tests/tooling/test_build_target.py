"""Where the build writes and serve listens: one line before building (drill 4, C6, D6)."""

from __future__ import annotations

import shutil
import socket
from collections import namedtuple

from tools.core import target


def test_a_taken_port_names_the_address_and_the_next_one():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        problem = target.port_problem("127.0.0.1", port)
    assert f"127.0.0.1:{port} is taken" in problem and f"make serve ADDR=127.0.0.1:{port + 1}" in problem


def test_a_free_port_is_fine():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert target.port_problem("127.0.0.1", port) is None


def test_a_full_disk_is_named_before_the_build(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda _: usage(10**9, 10**9 - 4 * 2**20, 4 * 2**20))
    problem = target.site_problem(tmp_path / "site")
    assert "has 4 MB free" in problem and "(-d DIR)" in problem


def test_a_site_folder_under_a_file_is_named(tmp_path):
    (tmp_path / "file").write_text("x")
    assert "is a file" in target.site_problem(tmp_path / "file" / "site")


def test_a_writable_folder_with_room_is_fine(tmp_path):
    assert target.site_problem(tmp_path / "site") is None
