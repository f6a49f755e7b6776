# ruff: noqa: E501  (the injected edits are quoted whole)
"""The fault drill: inject each fault a contributor can make into a clone, run exactly
the command a contributor runs for that change (CONTRIBUTING: ``record`` for a snippet,
``pytest -k <page>`` for a page, a strict build, a data file's test; never ``-q``, which
hides strict mode's warnings), and write a table: fault, command, caught?, seconds,
traceback?, first line of the message.

    git clone . /tmp/drill && ln -s "$PWD/.venv" /tmp/drill/.venv
    .venv/bin/python -m tools dev drill /tmp/drill drill.md [fault ...]

Run it on a quiet machine: the seconds are what a contributor waits.
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


VERSIONS = "data/torch-versions/2.14.1.json"
AUTHOR_FILE = Path("/tmp/author-only/weights.pt")  # exists on "the author's machine" only


def author_file() -> None:
    import torch

    AUTHOR_FILE.parent.mkdir(parents=True, exist_ok=True)
    torch.save(torch.ones(3), AUTHOR_FILE)
    in_section(f'w = torch.load("{AUTHOR_FILE}")')


def raw(path, old: bytes, new: bytes):
    p = CLONE / path
    data = p.read_bytes()
    assert old in data, (path, old)
    p.write_bytes(data.replace(old, new, 1))


def hand_edited_version_result():
    import json

    p = CLONE / VERSIONS
    data = json.loads(p.read_text(encoding="utf-8"))
    entry = next(e for e in data["snippets"].values() if e.get("status") == "pass")
    entry["status"] = "assert-failed"  # any hand edit breaks the runner's seal
    p.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def fabricated_median():
    import json

    p = CLONE / "benchmarks/results/cpu/detach_vs_clone.json"
    data = json.loads(p.read_text(encoding="utf-8"))
    data["cases"][0]["timing"]["median"] *= 1.004  # still inside q1..q3
    p.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


FAULTS = {
    # --- the first drill's faults
    "typed-output": lambda: [
        edit(p, '--8<-- "pitfalls/hook-aliases/hooks.out:cpu-noop"', ".cpu() returns the same object: True")
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
    "prints-id": lambda: in_section("print(id(object()))"),
    "prints-set": lambda: in_section('print({"alpha", "beta", "gamma", "delta"})'),
    "missing-section": lambda: edit(ZH, "hooks.py:cpu-noop", "hooks.py:cpu-nop"),
    "missing-translation": lambda: (CLONE / EN).unlink(),
    # --- the second drill's misses
    "thread-count": lambda: in_section('print("intra-op threads:", torch.get_num_threads())'),
    "today": lambda: in_section('import datetime\n\nprint("checked on:", datetime.date.today())'),
    "writes-into-repo": lambda: in_section('torch.save(t, __file__.replace(".py", "_cache.pt"))'),
    "writes-into-cwd": lambda: in_section('torch.save(t, "t.pt")'),
    "stderr-warning": lambda: in_section("u = torch.tensor(t)"),
    "exits-early": lambda: edit(
        SNIP,
        "w = torch.ones(3, requires_grad=True)\n",
        "import sys\n\nsys.exit(0)\nw = torch.ones(3, requires_grad=True)\n",
    ),
    "huge-output": lambda: in_section("for i in range(100_000):\n    print(i)"),
    "skip-hides-hand-edit": lambda: [
        *[
            edit(
                p,
                '``` python title="snippets/pitfalls/hook-aliases/hooks.py"\n--8<-- "pitfalls/hook-aliases/hooks.py:grad-alias"',
                '<!--pytest.mark.skip(reason="accumulates gradients")-->\n``` python title="snippets/pitfalls/hook-aliases/hooks.py"\n--8<-- "pitfalls/hook-aliases/hooks.py:grad-alias"',
            )
            for p in (ZH, EN)
        ],
        edit(
            SNIP.replace(".py", ".out"), "kept copy: tensor([2., 2., 2.])", "kept copy: tensor([4., 4., 4.])"
        ),
    ],
    "console-typed-output": lambda: [
        edit(
            p,
            '--8<-- "pitfalls/hook-aliases/hooks.out:alias"\n```\n',
            '--8<-- "pitfalls/hook-aliases/hooks.out:alias"\n```\n\n``` console\n$ python hooks.py\ntrue Linear output min: -0.3125\n```\n',
        )
        for p in (ZH, EN)
    ],
    "version-result-edited": hand_edited_version_result,
    "benchmark-median": fabricated_median,
    "empty-figure": lambda: edit(
        "figures/fundamentals/dynamic-graph/first_graph.py",
        "    return legible(fig)",
        "    plt.close(fig)\n    return legible(plt.figure(figsize=(5.0, 6.2)))",
    ),
    "factcheck-assert-in-cuda-branch": lambda: edit(
        "snippets/fact-check/training.py",
        "assert torch.equal(gap[True], torch.zeros(200))  # (3)!\n",
        "if torch.cuda.is_available():\n    assert torch.equal(gap[True], torch.zeros(200))  # (3)!\n",
    ),
    "helper-nonzero-no": lambda: (CLONE / "tests/helper/test_drill.py").write_text(
        "import pytest\nfrom torch import nn\nfrom autograd_lens import parameters_with_grad\n\n"
        "def test_it():\n    parameters_with_grad(nn.Linear(2, 1), nonzero='no')\n"
    ),
    "author-only-file": author_file,
    # --- crashes that must be one message, not a traceback
    "non-utf8-page": lambda: raw(EN, "“".encode(), b"\x93"),
    "non-utf8-snippet": lambda: raw(
        SNIP, b"# --8<-- [start:cpu-noop]\n", b"# --8<-- [start:cpu-noop]\n# r\xe9sum\xe9\n"
    ),
    "duplicate-section": lambda: (CLONE / SNIP).write_text(
        (CLONE / SNIP).read_text(encoding="utf-8")
        + "\n# --8<-- [start:alias]\nx = 1\n# --8<-- [end:alias]\n",
        encoding="utf-8",
    ),
    "figure-without-pyplot": lambda: edit(
        "figures/fundamentals/dynamic-graph/first_graph.py",
        "    return legible(fig)",
        "    from matplotlib.figure import Figure\n\n    plt.close(fig)\n    return legible(Figure())",
    ),
    # --- published by the build before, refused by it now
    "anchor-drift": lambda: edit(ZH, "{ #grad-alias }", "{ #grad-aliases }"),
    "glossary-row": lambda: edit(
        "docs/en/glossary.md", '<span class="glossary-term"', '<span class="glossary-term" |', 1
    ),
    "hand-edited-record": lambda: edit(SNIP.replace(".py", ".out"), "-0.2671", "-0.2617"),
}

PAGE = "hook-aliases"
COMMANDS = {
    "record": [PY, "-m", "tools", "snippets", "record", SNIP],
    "pytest -k page": [PY, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-m", "not browser", "-k", PAGE],
    "build": [PY, "-m", "mkdocs", "build", "--strict", "-d", "/tmp/fault-site"],
    "versions test": [PY, "-m", "pytest", "-q", "-p", "no:xdist", "tests/tooling/test_versions.py"],
    "benchmark test": [PY, "-m", "pytest", "-q", "-p", "no:xdist", "tests/content/test_benchmarks.py"],
    "fact-check test": [PY, "-m", "pytest", "-q", "-p", "no:xdist", "tests/tooling/test_factcheck.py"],
    "helper tests": [PY, "-m", "pytest", "-q", "-p", "no:xdist", "tests/helper"],
    "test-fast": ["make", "-o", ".venv/.installed", "test-fast"],
}
WHICH = {  # what a contributor runs after that change
    "typed-output": ["pytest -k page"],
    "wrong-section-output": ["pytest -k page"],
    "snippet-raises": ["record"],
    "prints-id": ["record"],
    "prints-set": ["record"],
    "missing-section": ["build"],
    "missing-translation": ["build"],
    "thread-count": ["record"],
    "today": ["record"],
    "writes-into-repo": ["record"],
    "writes-into-cwd": ["record"],
    "stderr-warning": ["record"],
    "exits-early": ["record"],
    "huge-output": ["record"],
    "skip-hides-hand-edit": ["pytest -k page", "build"],
    "console-typed-output": ["pytest -k page"],
    "version-result-edited": ["versions test", "build"],
    "benchmark-median": ["benchmark test"],
    "empty-figure": ["build"],
    "factcheck-assert-in-cuda-branch": ["fact-check test"],
    "helper-nonzero-no": ["helper tests"],
    "author-only-file": ["record"],
    "non-utf8-page": ["build", "pytest -k page"],
    "non-utf8-snippet": ["record", "build"],
    "duplicate-section": ["record"],
    "figure-without-pyplot": ["build"],
    "anchor-drift": ["build"],
    "glossary-row": ["build"],
    "hand-edited-record": ["build"],
}
INTERESTING = re.compile(
    r"(docs/|snippets/|figures/|data/|benchmarks/|Figure script|error|Error|stale|refresh|timed out|fails|failed)"
)


def reset():
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=CLONE, check=True)
    subprocess.run(
        ["git", "clean", "-fdq", "--", "docs", "snippets", "figures", "data", "tests", "benchmarks"],
        cwd=CLONE,
        check=True,
    )


def first_message(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("E   ") or line.startswith("E  "):
            line = line[1:].strip()
        if (
            not line
            or line.startswith(("====", "____", "----", "[gw", "+", "..", "Traceback"))
            or "│" in line
        ):
            continue  # "│": Material's end-of-life banner
        if (
            "docs/" in line
            or "snippets/" in line
            or "figures/" in line
            or "data/" in line
            or "benchmarks/" in line
        ) and ("Error" in line or "fail" in line or "stale" in line or ":" in line):
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
        for cmd in WHICH.get(name, ["test-fast"]):
            start = time.perf_counter()
            try:
                proc = subprocess.run(
                    COMMANDS[cmd],
                    cwd=CLONE,
                    capture_output=True,
                    text=True,
                    timeout=900,
                    env={**os.environ, "PYTHONPATH": f"{CLONE}/src:{CLONE}", "NO_MKDOCS_2_WARNING": "1"},
                )
                log, rc = proc.stdout + proc.stderr, proc.returncode
            except subprocess.TimeoutExpired:
                log, rc = "(timed out after 900 s)", -1
            seconds = time.perf_counter() - start
            (out.parent / f"fault-{name}-{cmd.replace(' ', '_')}.log").write_text(log)
            caught = rc != 0
            traceback = "yes" if "Traceback (most recent call last)" in log else "no"
            msg = first_message(log) if caught else "(passed: NOT caught)"
            rows.append(
                (name, cmd, "yes" if caught else "NO", f"{seconds:.0f}", traceback, msg.replace("|", "\\|"))
            )
            print(rows[-1], flush=True)
    reset()
    table = [
        "| fault | command | caught? | s | traceback? | first line of the message |",
        "|---|---|---|---|---|---|",
    ]
    table += [f"| {a} | `{b}` | {c} | {d} | {t} | {e} |" for a, b, c, d, t, e in rows]
    out.write_text("\n".join(table) + "\n")
    print("\n".join(table))
