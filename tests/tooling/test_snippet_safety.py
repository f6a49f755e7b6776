"""Nothing of the machine is recorded, nothing is lost, nothing is a traceback: the
snippet runner and ``record`` (fault drill 4, groups A, C, D and F)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.core import files
from tools.core.errors import ToolError
from tools.core.repo import ROOT, SNIPPETS
from tools.snippets import records, scan
from tools.snippets.source import SnippetError, expand_paths, parse

SECTION = "# --8<-- [start:a]\n{}\n# --8<-- [end:a]\n"


def _snippet(folder: Path, code: str, name: str = "demo.py", header: str = "") -> Path:
    path = folder / name
    path.write_text(header + SECTION.format(code), encoding="utf-8")
    return path


# --------------------------------------------------------------- what record accepts
def test_record_takes_only_snippets_under_snippets(tmp_path):
    with pytest.raises(ToolError, match=r"src/autograd_lens/reach.py is not under snippets/"):
        expand_paths([ROOT / "src/autograd_lens/reach.py"])
    with pytest.raises(ToolError, match=r"docs/zh/pitfalls is not under snippets/"):
        expand_paths([ROOT / "docs/zh/pitfalls"])


def test_a_record_is_refused_with_its_snippet_named():
    record = SNIPPETS / "pitfalls/hook-aliases/hooks.out"
    with pytest.raises(ToolError, match=r"is a record .*record its \.py: .*hooks\.py"):
        expand_paths([record])


def test_a_folder_without_snippets_is_an_error_never_all_snippets():
    empty = SNIPPETS / "zz-test-empty-folder"
    empty.mkdir()
    try:
        with pytest.raises(ToolError, match="holds no snippet"):
            expand_paths([empty])
    finally:
        empty.rmdir()


def test_an_empty_snippet_is_refused(tmp_path):
    path = tmp_path / "empty.py"
    path.write_text("", encoding="utf-8")
    with pytest.raises(SnippetError, match="is empty"):
        parse(path)


# --------------------------------------------------------------- what a record may hold
def test_a_secret_from_the_environment_is_never_recorded(tmp_path, fork_server, monkeypatch):
    monkeypatch.setenv("DRILL_API_TOKEN", "ghp_0123456789abcdef")
    path = _snippet(tmp_path, 'import os\n\nprint("token:", os.environ["DRILL_API_TOKEN"])')
    with pytest.raises(SnippetError, match=r"demo.out:2: holds the value of .*\$DRILL_API_TOKEN"):
        records.record(path, None)  # fresh interpreters see the variable
    assert not path.with_suffix(".out").exists()


@pytest.mark.parametrize(
    "text",
    ["/Users/alice/ckpt/linear.pt", "/home/bob/data/x.pt", r"C:\Users\carol\w.pt", "/mnt/data/w.pt"],
)
def test_an_authors_absolute_path_is_a_leak(text):
    assert scan.leaks(f'CKPT = "{text}"')


@pytest.mark.parametrize("text", ["2/2 = 1", "MB/s", "a/b/c", "https://pytorch.org/docs/x", "/dev/null"])
def test_ordinary_text_is_not_a_leak(text):
    assert scan.leaks(text, {}) == []


def test_the_interpreters_own_files_are_not_a_leak():
    assert scan.leaks(f"{sys.prefix}/lib/python3.11/site-packages/torch/x.py", {}) == []


def test_the_user_and_host_name_differ_in_the_second_run(tmp_path, fork_server):
    code = "import getpass\nimport socket\n\nprint(getpass.getuser(), socket.gethostname())"
    path = _snippet(tmp_path, code)
    with pytest.raises(SnippetError, match="another user and host name"):
        records.record(path, None)


# --------------------------------------------------------------- what a snippet may touch
def test_a_file_in_the_home_folder_is_refused(tmp_path, fork_server):
    own = Path.home() / ".cache" / "detach-test-author-only"
    own.mkdir(parents=True, exist_ok=True)
    (own / "w.txt").write_text("1")
    try:
        code = f'print(open("{own / "w.txt"}").read())'
        with pytest.raises(
            SnippetError, match=r"demo.py:2 \(section 'a'\) reads .*exists only on this machine"
        ):
            records.fresh(_snippet(tmp_path, code), fork_server)
    finally:
        (own / "w.txt").unlink()
        own.rmdir()


@pytest.mark.parametrize(
    "code",
    [
        'import urllib.request\ntry:\n    urllib.request.urlopen("http://127.0.0.1:9/w", timeout=1)\n'
        "except OSError:\n    pass",
        'import socket\ntry:\n    socket.create_connection(("127.0.0.1", 9), timeout=1)\n'
        "except OSError:\n    pass",
    ],
    ids=["urllib", "socket"],
)
def test_network_access_is_refused_naming_the_line(tmp_path, fork_server, code):
    with pytest.raises(SnippetError, match=r"demo.py:\d+ \(section 'a'\) connects to .*offline"):
        records.fresh(_snippet(tmp_path, code), fork_server)


def test_a_run_leaves_no_working_folder_behind(tmp_path, fork_server, monkeypatch):
    import tempfile

    own = tmp_path / "tmp"  # not the shared temp folder, where other runs come and go
    own.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(own))
    records.fresh(_snippet(tmp_path, "print(1)"), fork_server)
    records.fresh(_snippet(tmp_path, "print(1)", "b.py", header="# runner: subprocess\n"))
    assert list(own.glob("snippet-cwd-*")) == []


def test_another_runs_record_is_not_blamed_on_the_snippet(tmp_path, fork_server):
    """Two records at once: the other run's record (or its temporary file) appears in
    the folder during this run; the guard blames only what this run wrote."""
    (tmp_path / "other.py").write_text("print(2)\n")
    names = " ".join(f"{tmp_path}/{n}" for n in ("demo.out", "other.out", ".tmp-demo.out.x1"))
    # what the other run writes meanwhile (another process, so only the listing sees it)
    path = _snippet(tmp_path, f'import os\n\nos.system("touch {names}")\nprint(1)')
    assert "1" in records.fresh(path, fork_server)


def test_the_child_writes_utf8_whatever_the_shell_says(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONIOENCODING", "ascii")
    path = _snippet(tmp_path, 'print("形状：(3,)")', header="# runner: subprocess\n")
    assert "形状" in records.fresh(path)


# --------------------------------------------------------------- nothing lost, no traceback
def test_a_full_disk_keeps_the_old_record(tmp_path, monkeypatch):
    target = tmp_path / "x.out"
    target.write_text("old record\n", encoding="utf-8")

    def full(*_):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(ToolError, match=r"x.out: No space left on device; the disk is full"):
        files.write_text(target, "new record\n" * 1000)
    assert target.read_text(encoding="utf-8") == "old record\n"
    assert [p.name for p in tmp_path.iterdir()] == ["x.out"]  # no temporary file left


def test_an_unwritable_folder_is_one_line(tmp_path):
    with pytest.raises(ToolError, match=r"Cannot write /proc/drill/x.out: .*Nothing was changed"):
        files.write_text(Path("/proc/drill/x.out"), "x")


def _tools(*args: str, env: dict | None = None, python: str = sys.executable) -> subprocess.CompletedProcess:
    return subprocess.run(
        [python, "-m", "tools", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )


def test_another_torch_on_pythonpath_is_one_line(tmp_path):
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text("raise ImportError('not the pinned torch')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = _tools("snippets", "record", "snippets/pitfalls/hook-aliases/hooks.py", env=env)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert f"PYTHONPATH holds {tmp_path}, whose torch package shadows" in proc.stderr
    assert "Unset PYTHONPATH" in proc.stderr


def test_an_interpreter_without_the_packages_says_to_use_the_venv(tmp_path):
    """``python3 -m tools`` without the venv: the base interpreter has no torch."""
    base = Path(sys.base_prefix) / "bin" / "python3"
    if not base.exists():
        pytest.skip("no base interpreter here")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = _tools("snippets", "record", "snippets/pitfalls/hook-aliases/hooks.py", env=env, python=str(base))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "run it with .venv/bin/python" in proc.stderr
