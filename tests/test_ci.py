"""The GitHub workflows gate what they publish and run where they claim to."""

from __future__ import annotations

from pathlib import Path

import yaml

WORKFLOWS = Path(__file__).resolve().parent.parent / ".github" / "workflows"


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
