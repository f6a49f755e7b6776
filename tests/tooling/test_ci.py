"""The GitHub workflows gate what they publish and run where they claim to; the
torch pin is written once."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tools.core.repo import ROOT
from tools.pages import parse as pages

WORKFLOWS = ROOT / ".github" / "workflows"


def _load(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as True
    return data


def test_pages_deploys_only_a_commit_whose_tests_passed():
    wf = _load("pages.yml")
    run = wf["on"].get("workflow_run") if isinstance(wf["on"], dict) else None
    assert run and run["workflows"] == ["test"] and run["types"] == ["completed"], (
        ".github/workflows/pages.yml must run on `workflow_run` of the test workflow, not on push"
    )
    assert set(wf["on"]) == {"workflow_run"}, f"pages.yml must have no other trigger: {sorted(wf['on'])}"
    build = wf["jobs"]["build"]
    assert "github.event.workflow_run.conclusion == 'success'" in build.get("if", ""), (
        "pages.yml: the build job must require the test run to have succeeded"
    )
    checkout = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/checkout"))
    assert checkout.get("with", {}).get("ref") == "${{ github.event.workflow_run.head_sha }}", (
        "pages.yml must build the commit that was tested (head_sha), not the branch tip"
    )


def test_test_workflow_uses_playwrights_browser_and_caches_pip():
    wf = _load("test.yml")
    steps = wf["jobs"]["test"]["steps"]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "playwright install --with-deps chromium" in runs
    assert "apt-get install -y -qq chromium" not in runs, "ubuntu-24.04's apt chromium is a snap shim"
    make_test = next(s for s in steps if s.get("run", "").strip() == "make test")
    assert make_test["env"].get("CHROMIUM") == "playwright"


def test_workflows_cache_pip_downloads():
    for name in ("test.yml", "pages.yml"):
        jobs = _load(name)["jobs"].values()
        setups = [s for j in jobs for s in j["steps"] if s.get("uses", "").startswith("actions/setup-python")]
        assert setups and all(s["with"].get("cache") == "pip" for s in setups), f"{name}: cache: pip"


def test_workflows_are_valid():
    exe = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.fail("check-jsonschema is missing: run make setup", pytrace=False)
    workflows = sorted(str(p) for p in (ROOT / ".github" / "workflows").glob("*.yml"))
    assert workflows, "no workflows under .github/workflows"
    proc = subprocess.run(
        [exe, "--builtin-schema", "vendor.github-workflows", *workflows],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _lock_pins() -> dict[str, str]:
    lines = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
    return dict(line.split("==", 1) for line in lines if "==" in line)


def test_the_torch_pin_is_the_installed_torch():
    """requirements.lock is the one place that pins torch; what runs is what it says."""
    import tomllib

    import torch
    from packaging.requirements import Requirement

    pin = _lock_pins()["torch"]
    installed = torch.__version__.split("+")[0]
    assert installed == pin, (
        f"torch {installed} is installed but requirements.lock pins {pin}: run make setup "
        "(or change the pin in requirements.lock, the only place it is written)"
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for spec in project.get("dependencies", []):
        req = Requirement(spec)
        if req.name == "torch":
            assert req.specifier.contains(pin), f"pyproject.toml's {spec!r} excludes the pinned {pin}"
    stale = []
    for path in [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "Makefile",
        *sorted((ROOT / ".github" / "workflows").glob("*.yml")),
    ]:
        stale += [
            f"{path.name}: torch=={v}" for v in re.findall(r"torch==([\d.]+\d)", path.read_text()) if v != pin
        ]
    for lang in pages.LANGS:  # the home page says which torch ran the code
        stated = re.findall(r"PyTorch (\d+\.\d+\.\d+)", pages.text(lang, "index.md"))
        stale += [f"docs/{lang}/index.md: PyTorch {v}" for v in stated if v != pin]
    assert not stale, f"torch versions that disagree with requirements.lock ({pin}): {stale}"
