"""Build the wheel of the helper package (pyproject.toml's [project]) for the site.

`pip wheel --no-deps --no-build-isolation` on a clean copy of the files the build
reads, so the working tree gets no build/ or *.egg-info, and nothing is fetched.
SOURCE_DATE_EPOCH is fixed, so the same sources give a byte-identical wheel; the
result is cached under .cache/wheel/<hash of the inputs>/. The build publishes it
through tools/downloads/hook.py; tests/tooling/test_downloads.py installs it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import ROOT

CACHE = ROOT / ".cache" / "wheel"
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date a zip entry can hold
_TOP_LEVEL = ("pyproject.toml", "README*", "LICEN[CS]E*", "COPYING*", "NOTICE*", "setup.cfg", "MANIFEST.in")


class WheelError(ToolError, RuntimeError):
    """The helper's wheel could not be built; the message says why."""


def inputs() -> list[Path]:
    """The files the wheel is built from, relative to the repository root."""
    found: set[Path] = set()
    for pattern in _TOP_LEVEL:
        found.update(p for p in ROOT.glob(pattern) if p.is_file())
    found.update(
        p
        for p in (ROOT / "src").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and ".egg-info" not in str(p) and p.suffix != ".pyc"
    )
    return sorted(p.relative_to(ROOT) for p in found)


def _fingerprint(files: list[Path]) -> str:
    import setuptools

    h = hashlib.sha256(f"setuptools {setuptools.__version__}\n".encode())
    for rel in files:
        h.update(rel.as_posix().encode() + b"\0" + (ROOT / rel).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def build() -> Path:
    """Path of the helper's wheel, built now or reused from the cache."""
    files = inputs()
    if Path("pyproject.toml") not in files:
        raise WheelError("No pyproject.toml at the repository root: nothing to build the helper wheel from.")
    out = CACHE / _fingerprint(files)
    wheels = sorted(out.glob("*.whl")) if out.is_dir() else []
    if len(wheels) == 1:
        return wheels[0]
    with tempfile.TemporaryDirectory(prefix="helper-wheel-") as tmp:
        src = Path(tmp) / "src-copy"
        for rel in files:
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
        dist = Path(tmp) / "dist"
        env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PIP_NO_INPUT="1")
        env.pop("PYTHONPATH", None)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "--no-index",
                "--disable-pip-version-check",
                "-w",
                str(dist),
                str(src),
            ],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        built = sorted(dist.glob("*.whl"))
        if proc.returncode != 0 or len(built) != 1:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
            raise WheelError(
                f"Building the helper wheel from pyproject.toml failed (exit {proc.returncode}):\n{tail}\n"
                f"Reproduce with: {sys.executable} -m pip wheel --no-deps --no-build-isolation -w /tmp/dist ."
            )
        for old in CACHE.glob("*"):  # wheels of older sources
            if old != out and old.is_dir():
                shutil.rmtree(old)
        out.mkdir(parents=True, exist_ok=True)
        target = out / built[0].name
        shutil.copyfile(built[0], target)
    return target


def metadata(wheel: Path) -> dict[str, str | list[str]]:
    """Name, Version, Requires-Python and Requires-Dist from a wheel's METADATA."""
    import zipfile
    from email.parser import Parser

    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        msg = Parser().parsestr(zf.read(name).decode("utf-8"))
    return {
        "name": msg["Name"],
        "version": msg["Version"],
        "requires_python": msg.get("Requires-Python", ""),
        "requires_dist": msg.get_all("Requires-Dist") or [],
    }
