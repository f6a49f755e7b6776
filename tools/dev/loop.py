"""The loop benchmark: what a contributor waits for, measured on a clean clone.

``python -m tools dev loop`` (``make bench-loop``) clones a commit of this repository
into a temporary folder and times, there:

1. ``make setup`` (the venv from requirements.lock);
2. a cold ``make test`` (no caches, as CI runs it);
3. a warm ``make test`` with nothing changed;
4. a warm ``make test`` after a one-line prose edit of one page (both languages);
5. ``record`` of one snippet after a one-line edit, then ``make test``;
6. a cold and a warm strict build (wall and CPU seconds);
7. ``make serve`` (one language, then both): start, then the seconds from a prose edit
   to the rebuilt page being served.

Each step's wall time and the CPU seconds of everything it ran (user + system of its
process tree) go into ``benchmarks/loop-results/<date>-<commit>.json`` with the
machine (cores, memory, CPU model, load average before each step), the date, the
commit and the torch version; a Markdown table of the same goes beside it. The edits
are made in the clone only. Timings are data, never test assertions.
"""

from __future__ import annotations

import json
import os
import platform
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import ROOT

RESULTS = ROOT / "benchmarks" / "loop-results"  # not results/: that folder holds one device each
PROSE_PAGE = "fundamentals/leaves.md"  # a hand-written page with code, in both languages
SNIPPET = "snippets/fundamentals/leaves/leaves.py"
SERVE_TIMEOUT = 600


@dataclass
class Step:
    name: str
    wall_s: float
    cpu_s: float
    ok: bool
    load_before: float
    note: str = ""


@dataclass
class Run:
    commit: str
    date: str
    machine: dict
    steps: list[Step] = field(default_factory=list)


def _machine() -> dict:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        m = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.M)
        model = m.group(1).strip() if m else ""
    mem = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.is_file():
        m = re.search(r"^MemTotal:\s*(\d+) kB", meminfo.read_text(), re.M)
        mem = f"{int(m.group(1)) / 2**20:.0f} GiB" if m else ""
    return {
        "cores": os.cpu_count(),
        "cpu": model,
        "memory": mem,
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(run: Run, name: str, argv: list[str], cwd: Path, env: dict | None = None, note: str = "") -> Step:
    """Run ``argv`` in ``cwd`` and record its wall and CPU seconds (its whole tree)."""
    load = os.getloadavg()[0]
    cpu0, t0 = _children_cpu(), time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    step = Step(name, round(wall, 1), round(cpu, 1), proc.returncode == 0, round(load, 2), note)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        step.note = (note + " " if note else "") + f"failed (exit {proc.returncode})"
        print(f"{name}: failed\n{tail}", file=sys.stderr)
    print(f"{name:38} {step.wall_s:8.1f} s wall {step.cpu_s:8.1f} CPU-s", flush=True)
    run.steps.append(step)
    return step


def _edit_prose(clone: Path, n: int) -> None:
    """Append a sentence to the last paragraph of one page, in both languages."""
    for lang, words in (("zh", f"（第 {n} 次修改。）"), ("en", f" (Edit {n}.)")):
        page = clone / "docs" / lang / PROSE_PAGE
        text = page.read_text(encoding="utf-8").rstrip("\n")
        page.write_text(text + words + "\n", encoding="utf-8")


def _edit_snippet(clone: Path) -> None:
    """A one-line change that keeps the snippet's output: one more comment line."""
    path = clone / SNIPPET
    text = path.read_text(encoding="utf-8")
    path.write_text(text.rstrip("\n") + "\n# edited by the loop benchmark\n", encoding="utf-8")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.read().decode("utf-8", "replace")
    except OSError:
        return None


def _serve(run: Run, clone: Path, only: str | None) -> None:
    """Start `make serve`, wait for the site, edit a page, time until it is served."""
    port = _free_port()
    env = {**os.environ, "ADDR": f"127.0.0.1:{port}"}
    argv = ["make", "-o", ".venv/.installed", "serve", f"ADDR=127.0.0.1:{port}"]
    if only:
        argv.append(f"ONLY={only}")
    label = f"serve ({only or 'zh+en'})"
    lang = only or "zh"
    prefix = "" if only else ("" if lang == "zh" else "en/")
    # one language (ONLY=zh) is served at the site's path too, without a language folder
    url = f"http://127.0.0.1:{port}/detach-in-depth/{prefix}{PROSE_PAGE.removesuffix('.md')}/"
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=clone, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        page = None
        while time.perf_counter() - t0 < SERVE_TIMEOUT and page is None:
            time.sleep(0.5)
            page = _fetch(url) if proc.poll() is None else ""
        started = time.perf_counter() - t0
        run.steps.append(Step(f"{label}: first build", round(started, 1), 0.0, bool(page), round(load, 2)))
        print(f"{label + ': first build':38} {started:8.1f} s wall", flush=True)
        if not page:
            return
        marker = f"loop{int(time.time())}"
        target = clone / "docs" / lang / PROSE_PAGE
        text = target.read_text(encoding="utf-8").rstrip("\n")
        load = os.getloadavg()[0]
        t1 = time.perf_counter()
        target.write_text(text + f" {marker}\n", encoding="utf-8")
        seen = False
        while time.perf_counter() - t1 < SERVE_TIMEOUT and not seen:
            time.sleep(0.2)
            seen = marker in (_fetch(url) or "")
        reload = time.perf_counter() - t1
        name = f"{label}: reload after a prose edit"
        run.steps.append(Step(name, round(reload, 1), 0.0, seen, round(load, 2)))
        print(f"{label + ': reload after a prose edit':38} {reload:8.1f} s wall", flush=True)
        target.write_text(text + "\n", encoding="utf-8")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def loop(source: str, commit: str, out_dir: Path = RESULTS, keep: Path | None = None) -> Path:
    """Measure the loop on a clean clone of ``source`` at ``commit``; write the results."""
    work = Path(tempfile.mkdtemp(prefix="loop-bench-")) if keep is None else keep
    clone = work / "clone"
    try:
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", source, str(clone)], check=True)
        subprocess.run(["git", "checkout", "--quiet", commit], cwd=clone, check=True)
    except (subprocess.CalledProcessError, OSError) as err:
        raise ToolError(f"cannot clone {source} at {commit}: {err}") from None
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True)
    sha = head.stdout.strip()
    run = Run(sha, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), _machine())
    quiet_make = ["make", "-o", ".venv/.installed"]
    _timed(run, "make setup", ["make", "setup"], clone)
    _timed(run, "make test (cold: no caches)", [*quiet_make, "test"], clone)
    _timed(run, "make test (warm, no change)", [*quiet_make, "test"], clone)
    _edit_prose(clone, 1)
    _timed(run, "make test (after a prose edit)", [*quiet_make, "test"], clone, note=PROSE_PAGE)
    _edit_snippet(clone)
    record = [".venv/bin/python", "-m", "tools", "snippets", "record", SNIPPET]
    _timed(run, "record one snippet", record, clone)
    _timed(run, "make test (after one snippet edit)", [*quiet_make, "test"], clone, note=SNIPPET)
    shutil.rmtree(clone / ".cache", ignore_errors=True)
    build = [".venv/bin/properdocs", "build", "-f", "mkdocs.yml", "--strict", "-d", str(work / "site")]
    env = {"NO_MKDOCS_2_WARNING": "1"}
    _timed(run, "strict build (cold)", build, clone, env)
    _timed(run, "strict build (warm)", build, clone, env)
    _serve(run, clone, "zh")
    _serve(run, clone, None)
    torch = subprocess.run(
        [str(clone / ".venv/bin/python"), "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    run.machine["torch"] = torch
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{run.date[:10]}-{sha[:7]}"
    path = out_dir / f"{stem}.json"
    path.write_text(json.dumps(asdict(run), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    path.with_suffix(".md").write_text(table(run), encoding="utf-8")
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return path


def table(run: Run) -> str:
    m = run.machine
    head = (
        f"# Loop benchmark, commit {run.commit[:7]}, {run.date}\n\n"
        f"Machine: {m.get('cores')} cores, {m.get('memory')}, {m.get('cpu')}; {m.get('system')}; "
        f"Python {m.get('python')}; torch {m.get('torch', '?')}. Wall time is shared-machine time "
        "(see the load average); CPU seconds count every process the step ran.\n\n"
        "| step | wall s | CPU s | ok | load before |\n|---|---:|---:|---|---:|\n"
    )
    rows = [
        f"| {s.name}{' (' + s.note + ')' if s.note else ''} | {s.wall_s} | {s.cpu_s or '–'} | "
        f"{'yes' if s.ok else 'no'} | {s.load_before} |"
        for s in run.steps
    ]
    return head + "\n".join(rows) + "\n"
