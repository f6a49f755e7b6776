"""The fault drill (issue 13): inject each fault a contributor can make into a clone,
run what a contributor runs, and write a table of caught?, seconds and message.

    git clone . /tmp/drill && ln -s "$PWD/.venv" /tmp/drill/.venv
    .venv/bin/python -m tools dev drill /tmp/drill drill.md [fault ...]

Run it on a quiet machine: the seconds are what `make test-fast` costs a contributor.
"""

import os
import re
import subprocess
import time
from pathlib import Path

CLONE = Path("/tmp/drill")  # set by drill()
PY = ".venv/bin/python"  # run in the clone

SNIP = "snippets/pitfalls/hook-aliases/hooks.py"
ZH = "docs/zh/pitfalls/hook-aliases.md"
EN = "docs/en/pitfalls/hook-aliases.md"


def edit(path, old, new, count=1):
    p = CLONE / path
    s = p.read_text(encoding="utf-8")
    assert old in s, (path, old)
    p.write_text(s.replace(old, new, count), encoding="utf-8")


def in_section(line):  # add a line inside section cpu-noop
    edit(SNIP, "assert t.cpu() is t\n", f"assert t.cpu() is t\n{line}\n")


FAULTS = {
    "typed-output": lambda: [
        edit(
            p,
            '--8<-- "pitfalls/hook-aliases/hooks.out:cpu-noop"',
            ".cpu() on a CPU tensor returns the same object: True",
        )
        for p in (ZH, EN)
    ],
    "wrong-section-output": lambda: [
        edit(
            p,
            '--8<-- "pitfalls/hook-aliases/hooks.out:cpu-noop"',
            '--8<-- "pitfalls/hook-aliases/hooks.out:alias"',
        )
        for p in (ZH, EN)
    ],
    "snippet-raises": lambda: in_section('raise RuntimeError("injected")'),
    "stale-record": lambda: edit(
        SNIP, "t = torch.randn(3)\n", "t = torch.randn(3)\nprint('one more line')\n"
    ),
    "prints-id": lambda: in_section("print(id(object()))"),
    "prints-set": lambda: in_section('print({"alpha", "beta", "gamma", "delta"})'),
    "hangs": lambda: in_section("import time\n\ntime.sleep(10**6)"),
    "header-after-code": lambda: edit(
        SNIP, "import torch\nfrom torch import nn\n", "import torch\n# timeout: 300\nfrom torch import nn\n"
    ),
    "timeout-after-docstring": lambda: edit(SNIP, 'copy."""\n', 'copy."""\n# timeout: 300\n'),
    "requires-typo": lambda: edit(SNIP, '"""A forward hook', '# requires: gpu\n"""A forward hook'),
    "timeout-2m": lambda: edit(SNIP, '"""A forward hook', '# timeout: 2m\n"""A forward hook'),
    "yaml-verdict-no": lambda: edit("data/fact-check.yml", "    verdict: true", "    verdict: no"),
    "figure-raises": lambda: edit(
        "figures/fundamentals/dynamic-graph/first_graph.py",
        "\ndef draw",
        '\nraise RuntimeError("injected")\n\n\ndef draw',
    ),
    "missing-section": lambda: edit(ZH, "hooks.py:cpu-noop", "hooks.py:cpu-nop"),
    "missing-translation": lambda: (CLONE / EN).unlink(),
    "include-drift": lambda: edit(EN, "hooks.py:cpu-noop", "hooks.py:alias"),
}

COMMANDS = {
    "test-fast": ["make", "-o", ".venv/.installed", "test-fast"],
    "build": [PY, "-m", "mkdocs", "build", "--strict", "-q", "-d", "/tmp/fault-site"],
    "record": [PY, "-m", "tools", "snippets", "record", SNIP],
}
WHICH = {  # extra commands per fault (test-fast runs for all)
    "snippet-raises": ["build"],
    "stale-record": ["build"],
    "hangs": ["build"],
    "header-after-code": ["build"],
    "prints-id": ["record"],
    "prints-set": ["record"],
    "missing-section": ["build"],
    "missing-translation": ["build"],
    "typed-output": ["build"],
}
INTERESTING = re.compile(
    r"(docs/|snippets/|figures/|data/|Figure script|error|Error|stale|refresh|timed out|fails|failed)"
)


def reset():
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=CLONE, check=True)
    subprocess.run(
        ["git", "clean", "-fdq", "--", "docs", "snippets", "figures", "data"], cwd=CLONE, check=True
    )


def first_message(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("E   ") or line.startswith("E  "):
            line = line[1:].strip()
        if not line or line.startswith(("====", "____", "----", "[gw", "+", "..")) or "│" in line:
            continue  # "│": Material's end-of-life banner
        if ("docs/" in line or "snippets/" in line or "figures/" in line or "data/" in line) and (
            "Error" in line or "fail" in line or "stale" in line or ":" in line
        ):
            return line[:260]
    for line in text.splitlines():
        if INTERESTING.search(line) and "│" not in line:
            return line.strip()[:260]
    return "(no message found)"


def drill(clone: Path, out: Path, only: list[str]) -> None:
    global CLONE
    CLONE = clone.resolve()
    rows = []
    for name, inject in FAULTS.items():
        if only and name not in only:
            continue
        reset()
        inject()
        for cmd in ["test-fast", *WHICH.get(name, [])]:
            start = time.perf_counter()
            proc = subprocess.run(
                COMMANDS[cmd],
                cwd=CLONE,
                capture_output=True,
                text=True,
                timeout=900,
                env={**os.environ, "PYTHONPATH": f"{CLONE}/src:{CLONE}"},
            )
            seconds = time.perf_counter() - start
            out = proc.stdout + proc.stderr
            (out.parent / f"fault-{name}-{cmd}.log").write_text(out)
            caught = proc.returncode != 0
            msg = first_message(out) if caught else "(passed: NOT caught)"
            rows.append((name, cmd, "yes" if caught else "NO", f"{seconds:.0f}", msg.replace("|", "\\|")))
            print(rows[-1], flush=True)
    reset()
    table = [
        "| fault | command | caught? | s | message (first line naming the file) |",
        "|---|---|---|---|---|",
    ]
    table += [f"| {a} | `{b}` | {c} | {d} | {e} |" for a, b, c, d, e in rows]
    out.write_text("\n".join(table) + "\n")
    print("\n".join(table))
