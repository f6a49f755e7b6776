"""Run every snippet under this interpreter's torch and write its result file.

``run_all`` executes every snippet with the project's runner (``tools.snippets.records``),
compares each named section with the record (made on the site's pinned torch), runs the
helper's unit tests and doctests, and writes ``data/torch-versions/<torch>.json``; what
the file holds: ``tools.versions.results``. The command line: ``tools.versions.cli``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from tools.core import files
from tools.core.repo import ROOT, rel
from tools.versions.results import (
    DATA,
    REFERENCE,
    SCHEMA,
    base_version,
    classify,
    file_hash,
    load,
    sealed,
    sections,
    snippet_paths,
    summarize,
)

HELPER_TESTS = ("tests/helper/test_autograd_lens.py", "src/autograd_lens")  # unit tests, doctests

# A snippet that failed because this venv lacks a package: our set-up, not PyTorch.
_NO_MODULE = re.compile(r"^(ModuleNotFoundError|ImportError): No module named '(?!torch\b)")
_TB_LINE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')
_SITE_PACKAGES = re.compile(r"[^\s('\"]*/site-packages/")


def _failure(stderr: str, snippet_path: Path) -> tuple[str, int | None, str, str]:
    """(status, line, source line, message) from a traceback."""
    lines = stderr.strip().splitlines()
    line_no = None
    for text in lines:
        m = _TB_LINE.match(text)
        if m and Path(m["file"]).resolve() == snippet_path.resolve():
            line_no = int(m["line"])
    last = next((t for t in reversed(lines) if t.strip() and not t.startswith(" ")), "")
    last = _SITE_PACKAGES.sub("<site-packages>/", last)  # no paths of this machine in the data
    if "Timed out after" in stderr:  # tools.snippets.worker.timeout_message
        return "timeout", line_no, "", last[:500]
    status = "assert-failed" if last.startswith("AssertionError") else "error"
    source = ""
    if line_no is not None:
        src = snippet_path.read_text(encoding="utf-8").splitlines()
        if 0 < line_no <= len(src):
            source = src[line_no - 1].strip()
    return status, line_no, source, last[:500]


# A release that prints to stderr what the page neither shows nor explains: the lines are
# added to the section's output under this heading, so they are a difference that
# data/torch-versions/differences.yml must classify (record refuses the same on the pin).
STDERR_HEADING = "[printed to stderr]\n"
_WARNING_LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+): (?P<category>\w+(?:Warning|Error)): (?P<message>.*)$"
)


def stderr_by_section(snippet, parts: list[tuple[str | None, str]]) -> dict[str, str]:
    """{section: what it printed to stderr}, as a reader would read it: a warning as
    ``Category: message`` (no path or line of this machine), other lines with the
    site-packages path shortened. Stderr of code outside sections goes to the next
    section (the last one, at the end)."""
    from tools.snippets.worker import warning_text

    names = [c.name for c in snippet.chunks if c.name]
    out: dict[str, str] = {}
    pending = ""
    for name, text in parts:
        lines = []
        skip_source = False
        for line in text.splitlines():
            m = _WARNING_LINE.match(line)
            if m:
                lines.append(f"{m['category']}: {warning_text(m['message'])}")
                skip_source = True
                continue
            if skip_source and line.startswith("  "):
                continue  # the source line Python prints under a warning
            skip_source = False
            lines.append(_SITE_PACKAGES.sub("<site-packages>/", line.replace(str(ROOT) + "/", "")))
        cleaned = "\n".join(lines).strip()
        if name is None:  # code outside sections: told with the next section
            pending += cleaned + "\n" if cleaned else ""
            continue
        if pending or cleaned:
            out[name] = out.get(name, "") + pending + (cleaned + "\n" if cleaned else "")
        pending = ""
    if pending and names:
        out[names[-1]] = out.get(names[-1], "") + pending
    return out


def _partial_run(snippet) -> tuple[str, str, bool]:
    """Run in a fresh interpreter, keeping what the chunks printed before a failure.

    Returns (record text of the chunks that ran, stderr, timed out)."""
    from tools.snippets.records import format_record
    from tools.snippets.runner import execute

    outcome = execute(snippet)  # no server: a fresh interpreter, the full traceback
    ran = [text for text in outcome.outputs if text is not None]
    return format_record(snippet, ran), outcome.stderr, outcome.timed_out


def _timeout(snippet) -> dict:
    return {
        "status": "timeout",
        "line": None,
        "code": "",
        "message": f"Timed out after {snippet.timeout} s",
        "differs": {},
    }


def run_snippet(path: Path, server, cuda: bool) -> dict:
    """The snippet's result entry, sealed (``results.seal``): only a run writes one."""
    return sealed(_run_snippet(path, server, cuda))


def _run_snippet(path: Path, server, cuda: bool) -> dict:
    from tools.snippets.records import format_record
    from tools.snippets.runner import run
    from tools.snippets.source import SnippetError, parse

    snippet = parse(path)
    entry: dict = {"hash": file_hash(path)}
    record_path = snippet.record_path
    recorded = (
        sections(record_path.read_text(encoding="utf-8"), rel(record_path)) if record_path.exists() else {}
    )
    if snippet.needs_cuda and not cuda:
        entry["status"] = "skipped-cuda"
        return entry
    on_stderr: dict[str, str] = {}
    try:
        # other releases may warn: not an error here, but a difference (stderr_by_section)
        outcome = run(snippet, server, reader_checks=False)
        text = format_record(snippet, [out or "" for out in outcome.outputs])
        if not snippet.stderr_reason:  # the record rule: stderr a page does not explain
            on_stderr = stderr_by_section(snippet, outcome.stderr_by_section)
        entry["status"] = "pass"
    except subprocess.TimeoutExpired:
        return {**entry, **_timeout(snippet)}
    except SnippetError as err:
        if "Timed out after" in str(err):  # no second wait for the same hang
            return {**entry, **_timeout(snippet)}
        # Again in a fresh interpreter, to keep what ran before the failure and
        # its traceback (the runner's error keeps only the tail).
        text, stderr, timed_out = _partial_run(snippet)
        status, line, source, message = _failure(stderr, snippet.path)
        entry.update(status="timeout" if timed_out else status, line=line, code=source, message=message)
    # a path a message names is the repository's (a reader's checkout), never this machine's
    fresh_sections = sections(text.replace(str(ROOT) + "/", ""), rel(path))
    for name, printed in on_stderr.items():  # shown as a difference of the section that printed it
        fresh_sections[name] = fresh_sections.get(name, "") + STDERR_HEADING + printed
    names = [c.name for c in snippet.chunks if c.name]
    entry["differs"] = {
        n: fresh_sections[n] for n in names if n in fresh_sections and fresh_sections[n] != recorded.get(n)
    }
    not_reached = [n for n in names if n not in fresh_sections]
    if not_reached:
        entry["not_reached"] = not_reached
    return entry


def run_helper_tests() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "junit.xml"
        start = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                *HELPER_TESTS,
                "-q",
                "-p",
                "no:cacheprovider",
                "-o",
                "addopts=",
                "--doctest-modules",
                f"--junitxml={xml}",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            # TEST_VERDICTS=off: this release's run, never a pass remembered from before
            env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}", "TEST_VERDICTS": "off"},
        )
        result = {"paths": list(HELPER_TESTS), "seconds": round(time.perf_counter() - start, 1)}
        if not xml.exists():
            result.update(passed=0, failed=0, error=proc.stdout[-2000:] + proc.stderr[-2000:])
            return result
        cases = ET.parse(xml).getroot().iter("testcase")
        failed = {}
        passed = skipped = 0
        for case in cases:
            bad = case.find("failure") if case.find("failure") is not None else case.find("error")
            if bad is not None:
                failed[case.get("name")] = (bad.get("message") or "").splitlines()[0][:300]
            elif case.find("skipped") is not None:
                skipped += 1
            else:
                passed += 1
        result.update(passed=passed, failed=len(failed), skipped=skipped, failures=failed)
        return result


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def provenance() -> dict:
    import torch

    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    packages = {}
    for name in ("numpy", "sympy", "matplotlib"):
        try:
            packages[name] = __import__(name).__version__
        except ImportError:
            packages[name] = None
    return {
        "torch": torch.__version__,
        "torch_git": torch.version.git_version,
        "torch_cuda": torch.version.cuda,
        "cuda_available": torch.cuda.is_available(),
        "python": platform.python_version(),
        "packages": packages,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": _git("rev-parse", "HEAD"),
        "dirty": bool(_git("status", "--porcelain", "--", "snippets", "src", "tools")),
        "machine": {
            "platform": platform.platform(),
            "cpu": cpu or platform.processor(),
            "cpus": os.cpu_count(),
            "ci": "GitHub Actions" if os.environ.get("GITHUB_ACTIONS") else None,
        },
        "reference": REFERENCE,
    }


def _merged(out: Path, data: dict, only: list[Path] | None) -> dict:
    """The existing result file, to take this run's entries for ``only``."""
    if not only or not out.exists():
        raise SystemExit("--merge needs snippet paths and an existing result file")
    old, new = load(out, verify=False), data  # entries with a broken seal are re-run
    if old["torch"] != new["torch"]:
        raise SystemExit(f"--merge: {out} holds torch {old['torch']}, this is {new['torch']}")
    merged = {k: new[k] for k in ("date", "commit", "dirty")}
    merged["snippets"] = [rel(p) for p in only]
    return {**old, "merged": [*old.get("merged", []), merged]}


def _run_snippets(paths: list[Path], version: str, cuda: bool) -> dict[str, dict]:
    """{snippet: entry}, one progress line each."""
    from tools.snippets.runner import ForkServer

    entries = {}
    server = ForkServer()
    try:
        for i, path in enumerate(paths, 1):
            t0 = time.perf_counter()
            entry = entries[rel(path)] = run_snippet(path, server, cuda)
            mark = classify(entry)
            extra = f" line {entry.get('line')}: {entry.get('message', '')}" if mark == "fails" else ""
            if entry.get("differs"):
                extra += f" [{', '.join(entry['differs'])}]"
            print(
                f"[{i:2}/{len(paths)}] torch {version} {mark:8} {rel(path)}"
                f" ({time.perf_counter() - t0:.1f} s){extra}",
                flush=True,
            )
    finally:
        server.close()
    return entries


def run_all(
    out: Path | None, expect: str | None, only: list[Path] | None = None, merge: bool = False
) -> Path:
    import torch

    version = base_version(torch.__version__)
    if expect and version != expect:
        raise SystemExit(f"expected torch {expect}, but this interpreter has {torch.__version__}")
    out = out or DATA / f"{version}.json"
    start = time.perf_counter()
    data = {"schema": SCHEMA, **provenance(), "snippets": {}}
    if merge:
        data = _merged(out, data, only)
    paths = only or snippet_paths()
    data["snippets"].update(_run_snippets(paths, version, torch.cuda.is_available()))
    print(f"torch {version}: helper tests ({' '.join(HELPER_TESTS)}) ...", flush=True)
    data["helper_tests"] = run_helper_tests()
    if merge:
        data["merged"][-1]["seconds"] = round(time.perf_counter() - start, 1)
    else:
        data["seconds"] = round(time.perf_counter() - start, 1)
    data["snippets"] = dict(sorted(data["snippets"].items()))
    files.write_text(out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")  # whole or not at all
    counts = summarize(data)
    print(
        f"torch {version}: {counts}; helper tests {data['helper_tests'].get('passed')} passed, "
        f"{data['helper_tests'].get('failed')} failed; wrote {out} in "
        f"{time.perf_counter() - start:.0f} s"
    )
    _report_differences(version, data)
    return out


def _report_differences(version: str, data: dict) -> None:
    """After a run: the blocks that now need a class in differences.yml; a run in which
    a snippet lacked a package (an *environment* failure) fails."""
    from tools.versions.differences import unclassified
    from tools.versions.results import load_matrix

    matrix = load_matrix()
    for line in unclassified(matrix, matrix.differences):
        if f" on torch {version} " in line:
            print(f"  needs a class: {line}")
    entries = data["snippets"].items()
    lacking = [f"{n}: {e['message']}" for n, e in entries if _NO_MODULE.match(e.get("message", ""))]
    if lacking:
        raise SystemExit(
            f"torch {version}: {len(lacking)} snippet(s) failed because this venv lacks a package "
            f"({'; '.join(lacking)}): every venv gets requirements.lock (noxfile.py); fix the venv "
            'and re-run them (ARGS="--merge <snippet>"): such a result is never published'
        )
