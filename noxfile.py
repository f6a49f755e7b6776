"""Run every CPU snippet and the helper's unit tests under other torch releases.

    make test-versions                      # every release below, one venv each
    make test-versions TORCH="2.5.1 2.7.1"  # some of them
    make test-versions DROP=1               # remove each venv after its run
    make test-versions ARGS=--merge         # re-run only snippets changed since their run
    make test-versions TORCH=2.5.1 ARGS="--merge snippets/x/y.py"  # one snippet
    make test-versions NOXFLAGS="--envdir /other/checkout/.nox"  # reuse venvs made there
    .venv/bin/nox -s torch-2.5.1 -- --drop  # the same through nox directly
    .venv/bin/nox -l                        # list the sessions

Each release gets its own venv under .nox/ (ignored by git), reused on the next
run. Apart from torch (and the few adjustments in TORCH_RELEASES), a venv gets
exactly requirements.lock. The results go to data/torch-versions/<torch>.json;
the pages show them (tools/versions/notes.py). Not part of `make test`: from
the package index, torch comes as a CUDA build, about 6 GB and 10 minutes per
release.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
LOCK = ROOT / "requirements.lock"

nox.options.envdir = str(ROOT / ".nox")
nox.options.reuse_venv = "yes"
nox.options.error_on_missing_interpreters = True
nox.options.tags = ["versions"]

# The releases the site is checked on, each with the pins that differ from
# requirements.lock, and why. This is the only place such pins live.
# 2.13.0 is the site's own pin (its records are the reference); 2.15.0 is the
# newest release; the older ones are spread over what readers still run.
TORCH_RELEASES: dict[str, dict[str, str]] = {
    "2.15.0": {},
    "2.14.1": {},
    "2.13.0": {},
    "2.12.1": {},
    "2.11.0": {},
    "2.10.0": {},
    "2.9.1": {},
    "2.8.0": {},
    "2.7.1": {},
    "2.6.0": {
        # torch 2.6.0 requires exactly sympy 1.13.1; the lock has 1.14.0.
        "sympy": "1.13.1",
    },
    "2.5.1": {
        # torch 2.5.1 requires exactly sympy 1.13.1; the lock has 1.14.0.
        "sympy": "1.13.1",
    },
    "2.4.1": {},
}

# Releases above the cap that this machine's pip configuration (/etc/xdg/pip) puts
# on torch: their session installs with that configuration turned off.
ABOVE_PIP_CAP = {"2.15.0"}

PYTHON = "3.11"  # the lock (and the 2.13.0 CPU wheel) is for CPython 3.11


def _name(line: str) -> str:
    return re.split(r"[=<>!~;\[ ]", line, maxsplit=1)[0].strip().lower().replace("_", "-")


def requirements(torch: str) -> list[str]:
    """requirements.lock with torch and the release's adjustments swapped in.

    Without the lock's hashes: pip takes hashes for every requirement or for none,
    and the lock has none for another release's torch.
    """
    pins = {_name(k): v for k, v in TORCH_RELEASES[torch].items()}
    out = [f"torch=={torch}"]
    text = LOCK.read_text(encoding="utf-8").replace("\\\n", " ")  # one requirement a line
    for line in text.splitlines():
        line = re.sub(r"\s--hash=\S+", "", line.split("#", 1)[0]).strip()
        if not line or line.startswith("-"):
            continue
        name = _name(line)
        if name == "torch" or name in pins:
            continue
        out.append(line)
    out += [f"{name}=={version}" for name, version in pins.items()]
    return out


def _make_session(torch: str):
    @nox.session(name=f"torch-{torch}", python=PYTHON, tags=["versions"])
    def session(session: nox.Session) -> None:
        drop = "--drop" in session.posargs
        args = [a for a in session.posargs if a != "--drop"]  # e.g. --merge snippets/x.py
        venv = Path(session.virtualenv.location)
        req = venv / "torch-versions-requirements.txt"
        req.write_text("\n".join(requirements(torch)) + "\n", encoding="utf-8")
        # --no-cache-dir: the CUDA wheels would double the disk use in pip's cache.
        pip_env = {"PIP_CONFIG_FILE": os.devnull} if torch in ABOVE_PIP_CAP else {}
        session.install("--no-cache-dir", "--progress-bar", "on", "-r", str(req), silent=False, env=pip_env)
        env = {"PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            session.run(
                "python",
                "-m",
                "tools",
                "versions",
                "run",
                "--expect",
                torch,
                *args,
                env=env,
            )
        finally:
            if drop:
                session.log(f"--drop: removing {venv}")
                shutil.rmtree(venv, ignore_errors=True)

    return session


for _torch in TORCH_RELEASES:
    _make_session(_torch)
