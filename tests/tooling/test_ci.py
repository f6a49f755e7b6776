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


def _steps(wf: dict):
    return [(job_id, job, step) for job_id, job in wf["jobs"].items() for step in job.get("steps", [])]


def _workflows() -> dict[str, dict]:
    found = {p.name: _load(p.name) for p in sorted(WORKFLOWS.glob("*.yml"))}
    assert found, "no workflows under .github/workflows"
    return found


def test_pages_builds_and_names_the_tested_commit():
    """Under workflow_run GITHUB_SHA is main's newest commit: the build gets the tested one."""
    wf = _load("pages.yml")
    build = wf["jobs"]["build"]
    assert "github.event.workflow_run.event == 'push'" in build["if"], "pages.yml: only push runs of main"
    step = next(s for s in build["steps"] if s.get("run", "").strip() == "make build")
    assert step["env"].get("SITE_COMMIT") == "${{ github.event.workflow_run.head_sha }}", (
        "pages.yml: pass the tested commit to the build as SITE_COMMIT "
        "(the source links and the run page's pip install name it)"
    )
    import os

    from tools.core.repo import source_repository

    before = {k: os.environ.get(k) for k in ("SOURCE_REPOSITORY", "SITE_COMMIT", "GITHUB_SHA")}
    try:
        os.environ.update(SOURCE_REPOSITORY="https://x.invalid/o/r", SITE_COMMIT="abc", GITHUB_SHA="zzz")
        assert source_repository() == ("https://x.invalid/o/r", "abc"), (
            "tools/core/repo.py::source_repository() must name SITE_COMMIT, never GITHUB_SHA"
        )
    finally:
        for k, v in before.items():
            os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)


def test_every_workflow_grants_least_privilege():
    """A workflow-level token reads at most; a job that writes says so itself."""
    for name, wf in _workflows().items():
        assert "permissions" in wf, (
            f"{name}: no top-level `permissions:` (write `permissions: {{}}` or contents: read)"
        )
        top = wf["permissions"] or {}
        assert isinstance(top, dict) and all(v in ("read", "none") for v in top.values()), (
            f"{name}: the workflow-level token must not write ({top}); grant writes per job"
        )
        for job_id, job in wf["jobs"].items():
            granted = job.get("permissions", top) or {}
            assert isinstance(granted, dict), f"{name}: job {job_id}: list its permissions, not {granted!r}"


def test_actions_are_pinned_by_commit_and_checkouts_keep_no_token():
    for name, wf in _workflows().items():
        text = (WORKFLOWS / name).read_text(encoding="utf-8")
        for uses in re.findall(r"uses:\s*(\S+.*)", text):
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}\s+# v\d+(\.\d+)*", uses.strip()), (
                f"{name}: `uses: {uses}`: pin an action by its full commit, with the release in a comment"
            )
        for job_id, job, step in _steps(wf):
            if not step.get("uses", "").startswith("actions/checkout@"):
                continue
            keep = step.get("with", {}).get("persist-credentials")
            writes = (job.get("permissions") or {}).get("contents") == "write"
            assert keep is False or (keep is True and writes), (
                f"{name}: job {job_id}: checkout with `persist-credentials: false` "
                "(only a job that pushes keeps it)"
            )


def test_no_expression_is_expanded_into_a_shell_script():
    """`${{ … }}` inside `run:` is template injection; pass values through `env:`."""
    for name, wf in _workflows().items():
        for job_id, _, step in _steps(wf):
            assert "${{" not in step.get("run", ""), (
                f"{name}: job {job_id}: move `${{{{ … }}}}` in run: to env:"
            )


def test_test_and_pages_runs_are_grouped():
    test = _load("test.yml").get("concurrency") or {}
    assert "github.ref" in test.get("group", "") and test.get("cancel-in-progress") is True, (
        "test.yml: a newer run for the same ref cancels the one it supersedes"
    )
    pages = _load("pages.yml").get("concurrency") or {}
    assert pages.get("group") and pages.get("cancel-in-progress") is False, (
        "pages.yml: never cancel a deployment half-way"
    )


def test_gpu_runs_only_where_a_runner_exists_and_its_pull_request_is_tested():
    wf = _load("gpu.yml")
    gpu = next(j for j in wf["jobs"].values() if "gpu" in j["runs-on"])
    assert gpu.get("if") == "vars.GPU_RUNNER == 'true'", (
        "gpu.yml: run the gpu job only where GPU_RUNNER is 'true'"
    )
    assert gpu["permissions"] == {"contents": "read"}, "gpu.yml: the self-hosted job holds a read-only token"
    opener = next(
        j for j in wf["jobs"].values() if "gh pr create" in "".join(s.get("run", "") for s in j["steps"])
    )
    script = "".join(s.get("run", "") for s in opener["steps"])
    assert "gh workflow run test.yml --ref" in script and opener["permissions"].get("actions") == "write", (
        "gpu.yml: a pull request opened with GITHUB_TOKEN starts no workflow: dispatch test.yml on its branch"
    )
    assert "workflow_dispatch" in _load("test.yml")["on"], "test.yml must accept workflow_dispatch"


def test_workflows_pass_zizmor():
    """zizmor (offline audits) finds nothing; an exception is an inline ignore with its reason."""
    import json

    exe = shutil.which("zizmor", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("zizmor is not installed in this venv: run make setup")
    proc = subprocess.run(
        [exe, "--offline", "--no-progress", "--format", "json", str(WORKFLOWS)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode in (0, *range(10, 20)), proc.stderr
    findings = [_finding(f) for f in json.loads(proc.stdout or "[]")]
    assert not findings, f"zizmor: {findings} (make lint-workflows explains each)"


def _finding(found: dict) -> str:
    """'high template-injection gpu.yml:12' from one finding of zizmor's JSON output."""
    where = found["locations"][0]
    path = Path(next(iter(where["symbolic"]["key"].get("Local", {}).values()), "?")).name
    row = where["concrete"]["location"]["start_point"]["row"] + 1
    return f"{found['determinations']['severity'].lower()} {found['ident']} {path}:{row}"


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


def _lock_entries() -> dict[str, tuple[str, list[str]]]:
    """requirements.lock as {name: (version, hashes)}, its continuation lines joined."""
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8").replace("\\\n", " ")
    entries = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, *options = line.split()
        name, _, version = spec.partition("==")
        entries[name] = (version, [o.removeprefix("--hash=") for o in options if o.startswith("--hash=")])
    return entries


def _lock_pins() -> dict[str, str]:
    return {name: version for name, (version, _) in _lock_entries().items()}


def test_the_lock_pins_and_hashes_every_package():
    """make setup installs with --require-hashes: every package pinned with ==, each with
    the sha256 of the files pip may pick, and nothing that names this machine's indexes."""
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    entries = _lock_entries()
    assert len(entries) > 50, "requirements.lock looks truncated"
    unpinned = [name for name, (version, _) in entries.items() if not re.fullmatch(r"[\w.!+-]+", version)]
    assert not unpinned, f"requirements.lock: not pinned with ==: {unpinned} (run make lock)"
    unhashed = [name for name, (_, hashes) in entries.items() if not hashes]
    assert not unhashed, f"requirements.lock: no --hash for {unhashed} (run make lock)"
    bad = [h for _, hashes in entries.values() for h in hashes if not re.fullmatch(r"sha256:[0-9a-f]{64}", h)]
    assert not bad, f"requirements.lock: hashes that are not sha256: {bad[:3]}"
    for option in ("--index-url", "--extra-index-url", "--find-links", "file://"):
        assert option not in text, (
            f"requirements.lock names a package index ({option}): make lock leaves them out"
        )
    assert "+" not in entries["torch"][0], "requirements.lock: pin torch without its local label (+cpu)"
    for tool in ("zizmor", "check-jsonschema", "pip-tools"):  # make lint-workflows, make lock
        assert tool in entries, f"requirements.lock lacks {tool}"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements.lock" in makefile, (
        "make setup must install with --require-hashes"
    )
    assert "--generate-hashes" in makefile, "make lock must write the hashed form"


def test_the_version_matrix_reads_the_lock_without_hashes():
    """noxfile.py swaps torch for each release; pip takes hashes for all or none."""
    sys.path.insert(0, str(ROOT))
    try:
        import noxfile
    finally:
        sys.path.remove(str(ROOT))
    pins = _lock_pins()
    release = next(r for r in noxfile.TORCH_RELEASES if r != pins["torch"])
    lines = noxfile.requirements(release)
    assert lines[0] == f"torch=={release}"
    assert not [line for line in lines if "--hash" in line or "\\" in line or line.startswith("-")], lines
    names = [noxfile._name(line) for line in lines]
    assert sorted(names) == sorted({noxfile._name(n) for n in pins}), (
        "every locked package once, torch swapped"
    )


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


def test_the_zensical_config_is_one_language_with_relative_paths(tmp_path, monkeypatch):
    """What Zensical 0.1.1 accepts (checked by hand with a stand-in UI package, 0
    warnings): docs_dir and site_dir relative to the config, no hooks, no i18n, and
    the emoji functions as names Zensical resolves itself."""
    import shutil

    import yaml

    from tools.core.errors import ToolError
    from tools.core.repo import ROOT
    from tools.dev import canary

    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    monkeypatch.setattr(canary, "ROOT", tmp_path)
    config = yaml.safe_load(canary.one_language_config("en", tmp_path / "z.yml").read_text())
    assert config["docs_dir"] == "docs/en" and config["site_dir"] == "site-zensical/en"
    assert "hooks" not in config and config["theme"]["language"] == "en"
    names = {next(iter(p)) if isinstance(p, dict) else p for p in config["plugins"]}
    assert not names & {"i18n", "search"}
    emoji = next(e["pymdownx.emoji"] for e in config["markdown_extensions"] if "pymdownx.emoji" in e)
    assert all(isinstance(v, str) and v for v in emoji.values())
    with pytest.raises(ToolError, match="repository root"):
        canary.one_language_config("en", tmp_path / "sub" / "z.yml")
