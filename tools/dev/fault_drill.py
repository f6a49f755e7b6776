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

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
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
        "    return legible(for_phone(fig) if narrow else fig)",
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
        "    return legible(for_phone(fig) if narrow else fig)",
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
# ------------------------------------------------------------------ the fourth drill
# Security, caches, interruptions, environment, cross-language integrity, the command
# line (../shared/reviews/2026-12-03-turn4-faults-review.md), each with variants of
# the review's payloads. A row whose name ends in a "held" check (HELD below) runs a
# checker that exits 0 when the pipeline neutralised the fault.
FQ = "data/questions.yml"
FC = "data/fact-check.yml"
PINS = "data/upstream-tests.yml"
FIG = "figures/fundamentals/dynamic-graph/first_graph.py"
STATE: dict = {}  # what a setup made (a port, a mount) for the fault's inject and commands


def both(old, new):
    for path in (ZH, EN):
        edit(path, old, new)


def include_in_both(include, fence="cpp"):
    both("!!! warning", f'``` {fence}\n--8<-- "{include}"\n```\n\n!!! warning')


def faq_field(field, value):
    """Set one field of the numpy-requires-grad entry (YAML text edit, quoted)."""
    p = CLONE / FQ
    text = p.read_text(encoding="utf-8")
    start = text.index("  - id: numpy-requires-grad\n")
    end = text.index("\n  - id: ", start + 10)
    entry = text[start:end]
    quoted = value.replace("\\", "\\\\").replace('"', '\\"')
    m = re.search(rf"^    {field}: .*(?:\n      .*)*", entry, re.M)
    line = f'    {field}: "{quoted}"'
    entry = (
        entry.replace(m.group(0), line, 1) if m else entry.replace("\n    date:", f"\n{line}\n    date:", 1)
    )
    p.write_text(text[:start] + entry + text[end:], encoding="utf-8")


def drop_box(path, title):
    p = CLONE / path
    text = p.read_text(encoding="utf-8")
    p.write_text(
        re.sub(rf"{re.escape(title)}\n(?:    .*\n|\n(?=    ))+", "", text, count=1), encoding="utf-8"
    )


def symlink(target, name):
    link = CLONE / "snippets/pitfalls/hook-aliases" / name
    link.symlink_to(target)


def shared_title_module():
    (CLONE / "figures/_drill_titles.py").write_text('TITLE = "first title"\n', encoding="utf-8")
    edit(FIG, "    draw_graph({", "    from figures._drill_titles import TITLE as _T\n\n    draw_graph({")
    edit(FIG, "title=TITLE[lang])", "title=_T)")


def author_home_file():
    path = Path.home() / ".cache" / "drill4-author" / "weights.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("1.0\n")
    in_section(f'w = open("{path}").read()')


def nul_figure():
    (CLONE / "figures/fundamentals/dynamic-graph/blob_fig.py").write_bytes(
        b"def draw(lang):\n    return None\n\x00\x01\x02\xff"
    )


def broken_helper():
    edit("src/autograd_lens/reach.py", "if id(p) in found]", "if id(p) not in found]")


def big_output():
    in_section('for i in range(150):\n    print("a long line of output", i, "." * 40)')


FAULTS.update(
    {
        # A. nothing of the machine published, no script from data
        "a02-faq-source-closes-link": lambda: faq_field(
            "source", "https://tutorialreference.com/a)<img src=data:, onerror=alert(document.domain)>"
        ),
        "a02b-duplicate-source-quote": lambda: edit(
            FQ,
            '{source: "https://androidkt.com/fix-cant',
            '{source: "https://androidkt.com/x\\" onmouseover=\\"alert(1)", date: undated}\n      - {source: "https://androidkt.com/fix-cant',
        ),
        "a05-faq-title-html": lambda: faq_field(
            "title_en", "`.numpy()` fails: what now? <img alt='' src=data:, onerror=alert(document.title)>"
        ),
        "a05b-faq-title-svg-zh": lambda: faq_field("title_zh", "numpy() 报错怎么办？<svg onload=alert(1)>"),
        "a07-faq-answer-a-javascript": lambda: faq_field(
            "answer_en", 'Detach first. See <a href="javascript:alert(1)">the docs</a>.'
        ),
        "a07b-faq-answer-entity-javascript": lambda: faq_field(
            "answer_en", "Detach first. See [the docs](java&#x09;script:alert(1))."
        ),
        "a08-factcheck-section-img": lambda: edit(
            FC, 'section: "1"', 'section: "1<img alt=\\"\\" src=data:, onerror=alert(1)>"'
        ),
        "a08b-factcheck-quote-script": lambda: edit(
            FC, 'quote_en: "PyTorch uses', 'quote_en: "<script>alert(1)</script> PyTorch uses'
        ),
        "a10-glossary-script": lambda: edit(
            "docs/en/glossary.md",
            "PyTorch's automatic differentiation engine |",
            "PyTorch's automatic differentiation engine <script>alert('A10')</script> |",
        ),
        "a10b-glossary-img-zh": lambda: edit(
            "docs/zh/glossary.md",
            "| 自动微分（autograd） |",
            "| 自动微分（autograd）<img src=x onerror=alert(1)> |",
        ),
        "a11-pin-subject-script": lambda: edit(
            PINS, 'subject: "`detach()`"', 'subject: "`detach()`<script>alert(1)</script>"'
        ),
        "a12-include-climbs-out": lambda: include_in_both("../../../../../../../../etc/hostname", "ini"),
        "a13-include-absolute": lambda: include_in_both("/etc/passwd", "cpp"),
        "a14b-symlink-out-cpp": lambda: [
            symlink("/etc/passwd", "notes.txt"),
            include_in_both("pitfalls/hook-aliases/notes.txt"),
        ],
        "a14c-block-include-out": lambda: both(
            "!!! warning", "--8<--\n../../../../../../etc/hostname\n--8<--\n\n!!! warning"
        ),
        "a15-symlinked-record": lambda: symlink("/proc/self/environ", "env.out"),
        "a16b-git-config-cpp": lambda: include_in_both(".git/config"),
        "a17-prints-secret": lambda: in_section(
            'import os\n\nprint("token:", os.environ.get("DRILL_API_TOKEN", "unset"))'
        ),
        "a18-prints-user-host": lambda: in_section(
            'import getpass\nimport socket\n\nprint("run by", getpass.getuser(), "on", socket.gethostname())'
        ),
        "a19-reads-home-cache": author_home_file,
        "a20-downloads": lambda: in_section(
            f'import urllib.request\n\nw = urllib.request.urlopen("http://127.0.0.1:{STATE.get("port", 9)}/README.md").read()'
        ),
        "a20b-raw-socket": lambda: in_section(
            f'import socket\n\ns = socket.create_connection(("127.0.0.1", {STATE.get("port", 9)}))\ns.close()'
        ),
        "a25-author-path": lambda: in_section('CKPT = "/Users/alice/ckpt/linear.pt"\nprint(len(CKPT) > 0)'),
        "a25b-windows-path": lambda: in_section(
            'CKPT = r"C:\\Users\\alice\\ckpt\\linear.pt"\nprint(len(CKPT) > 0)'
        ),
        # B. nothing silently stale
        "b1-figure-shared-module": shared_title_module,
        "b2-matplotlibrc": lambda: None,  # the checker writes it
        # C. interruptions and concurrency
        "c1-no-cwd-left": lambda: None,
        "c2-two-records-at-once": lambda: (CLONE / SNIP.replace(".py", ".out")).unlink(),
        "c4-disk-full-record": big_output,
        "c5-read-only-folder": lambda: None,  # the setup edits the snippet, then mounts read-only
        "c6-disk-full-build": lambda: None,
        "c8-stale-figure-tmp": lambda: None,
        "c9-damaged-build-cache": lambda: None,
        # D. environment
        "d2-ascii-output-encoding": lambda: in_section('print("形状：(3,)（一维）")'),
        "d5b-system-python": lambda: None,
        "d6-taken-port": lambda: None,
        "d7-foreign-torch": lambda: None,
        "d8-helper-of-this-checkout": broken_helper,
        # E. the two languages agree
        "e1-number-in-one-language": lambda: edit(EN, "from 2 to 4", "from 2 to 6"),
        "e1b-number-in-zh": lambda: edit(ZH, "从 2 变成了 4", "从 2 变成了 8"),
        "e2-warning-dropped": lambda: drop_box(EN, '!!! warning "Common misconception"'),
        "e2b-warning-made-a-note": lambda: edit(
            EN, '!!! warning "Common misconception"', '!!! note "Common misconception"'
        ),
        "e3-untranslated-answer": lambda: faq_field("answer_en", "TODO: translate."),
        "e3b-untranslated-title-zh": lambda: faq_field("title_zh", "待翻译"),
        "e4-verdict-flipped": lambda: edit(
            FC,
            '    verdict: misleading\n    reason_zh: "【误导】在 GPU 上',
            '    verdict: true\n    reason_zh: "【误导】在 GPU 上',
        ),
        "e4b-verdict-and-lead-flipped": lambda: [
            edit(
                FC,
                '    verdict: misleading\n    reason_zh: "【误导】在 GPU 上',
                '    verdict: true\n    reason_zh: "【正确】在 GPU 上',
            ),
            edit(FC, "[misleading] On a GPU, cpu()", "[true] On a GPU, cpu()"),
        ],
        "e5-pin-line": lambda: edit(PINS, "line: 11814}", "line: 11820}"),
        "e6-pin-zh-only": lambda: edit(
            "docs/en/internals/comparison.md", "<!-- pytorch-pins: no-grad-views -->", ""
        ),
        "e7-other-claim-linked": lambda: edit(EN, "fact-check.md#s003-11", "fact-check.md#s003-12"),
        # F. the command line
        "f10-empty-snippet": lambda: (CLONE / "snippets/pitfalls/hook-aliases/empty.py").write_text(""),
        "f12-record-a-record": lambda: None,
        "f13-record-outside-snippets": lambda: None,
        "f14-record-a-docs-folder": lambda: None,
        "f14b-record-empty-folder": lambda: (CLONE / "snippets/pitfalls/zz-empty").mkdir(),
        "f15-figure-nul-bytes": nul_figure,
        "f17-downloads-missing-page": lambda: None,
        "f17b-downloads-page-without-md": lambda: None,
        "f18-downloads-unwritable": lambda: None,
        "f19-downloads-outside-docs": lambda: None,
    }
)


def _py(code: str) -> list[str]:
    return [PY, "-c", code]


CHECK_FIGURE_MODULE = """
import sys
from pathlib import Path
from tools.figures import build as b
s = Path("figures/fundamentals/dynamic-graph/first_graph.py").resolve()
before = {u: p.read_bytes() for u, p in b.build_one(s).items()}
Path("figures/_drill_titles.py").write_text('TITLE = "second title"\\n')
after = {u: p.read_bytes() for u, p in b.build_one(s).items()}
print("held: the figure was rendered again after figures/_drill_titles.py changed" if before != after
      else "NOT held: the old figure was kept after figures/_drill_titles.py changed")
sys.exit(0 if before != after else 1)
"""
CHECK_RC = """
import sys
from pathlib import Path
from tools.figures import build as b
s = Path("figures/fundamentals/dynamic-graph/first_graph.py").resolve()
k1 = b.cache_key(s)
Path("matplotlibrc").write_text("lines.linewidth: 6\\n")
k2 = b.cache_key(s)
print("held: a matplotlibrc changes the figures' key" if k1 != k2 else "NOT held: same key with a matplotlibrc")
sys.exit(0 if k1 != k2 else 1)
"""
CHECK_CWD = """
import os, subprocess, sys, tempfile
from pathlib import Path
tmp = Path(tempfile.mkdtemp(prefix="drill-tmp-"))
env = {**os.environ, "TMPDIR": str(tmp)}
rc = subprocess.run([sys.executable, "-m", "tools", "snippets", "record", "@SNIP@"], env=env).returncode
left = sorted(p.name for p in tmp.glob("snippet-cwd-*"))
print(f"held: no snippet-cwd-* folder left (record rc {rc})" if not left else f"NOT held: left {left}")
sys.exit(0 if not left and rc == 0 else 1)
""".replace("@SNIP@", SNIP)
CHECK_TWO = """
import subprocess, sys, time
cmd = [sys.executable, "-m", "tools", "snippets", "record", "@SNIP@"]
a = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
b = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
outs = [p.communicate()[0] for p in (a, b)]
ok = a.returncode == 0 and b.returncode == 0
print("held: both records passed" if ok else "NOT held: " + " | ".join(o.strip().splitlines()[0] for o in outs if o.strip()))
sys.exit(0 if ok else 1)
""".replace("@SNIP@", SNIP)
CHECK_FULL_DISK = """
import subprocess, sys
from pathlib import Path
rec = Path("@OUT@")
old = rec.read_bytes()
p = subprocess.run([sys.executable, "-m", "tools", "snippets", "record", "@SNIP@"], capture_output=True, text=True)
kept = rec.read_bytes() == old
first = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
ok = p.returncode != 0 and kept and "Traceback" not in p.stderr
print(("held: refused, old record kept: " if ok else f"NOT held (record kept: {kept}): ") + first)
sys.exit(0 if ok else 1)
""".replace("@OUT@", SNIP.replace(".py", ".out")).replace("@SNIP@", SNIP)
CHECK_STALE_TMP = """
import os, subprocess, sys, time
from pathlib import Path
t = Path(".cache/figures/tmp-drill-left")
t.mkdir(parents=True, exist_ok=True)
past = time.time() - 3600
os.utime(t, (past, past))
subprocess.run([sys.executable, "-m", "tools", "figures", "build"], capture_output=True)
print("held: the stale tmp- folder was removed" if not t.exists() else "NOT held: tmp-drill-left stays")
sys.exit(0 if not t.exists() else 1)
"""
CHECK_DAMAGED_CACHE = """
import os, sys
from pathlib import Path
f = Path(".cache/build/cache.sqlite")
f.parent.mkdir(parents=True, exist_ok=True)
f.write_bytes(os.urandom(8192))
from tools.core import cache
cache.put("drill", "k", "v")
ok = cache.get("drill", "k") == "v"
print("held: the damaged cache file was replaced and works" if ok else "NOT held: the cache stays damaged")
sys.exit(0 if ok else 1)
"""

HELD = {
    "b1-figure-shared-module",
    "b2-matplotlibrc",
    "c1-no-cwd-left",
    "c2-two-records-at-once",
    "c4-disk-full-record",
}
HELD |= {"c8-stale-figure-tmp", "c9-damaged-build-cache", "d2-ascii-output-encoding"}


def _system_python() -> str:
    import sys

    for candidate in (Path(sys.base_prefix) / "bin" / "python3", Path("/usr/bin/python3")):
        if candidate.exists():
            return str(candidate)
    return "python3"


def record_of(path):
    return [PY, "-m", "tools", "snippets", "record", path]


COMMANDS.update(
    {
        "faq write": [PY, "-m", "tools", "faq", "write"],
        "faq test": [
            PY,
            "-m",
            "pytest",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "tests/tooling/test_faq.py",
        ],
        "pins test": [
            PY,
            "-m",
            "pytest",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "tests/tooling/test_pins.py",
        ],
        "pytest -k glossary": [
            PY,
            "-m",
            "pytest",
            "-p",
            "no:xdist",
            "-m",
            "not browser",
            "-k",
            "glossary",
            "tests/content",
        ],
        "figure cache": _py(CHECK_FIGURE_MODULE),
        "rc key": _py(CHECK_RC),
        "record (cwd)": _py(CHECK_CWD),
        "two records": _py(CHECK_TWO),
        "record (12 KB disk)": _py(CHECK_FULL_DISK),
        "build (4 MB disk)": [PY, "-m", "mkdocs", "build", "--strict", "-d", "/tmp/drill-tmpfs/site"],
        "figures build": _py(CHECK_STALE_TMP),
        "build cache": _py(CHECK_DAMAGED_CACHE),
        "record (system python)": [_system_python(), "-m", "tools", "snippets", "record", SNIP],
        "make serve": ["make", "-o", ".venv/.installed", "serve", "ADDR=127.0.0.1:{port}"],
        "record empty.py": record_of("snippets/pitfalls/hook-aliases/empty.py"),
        "record hooks.out": record_of(SNIP.replace(".py", ".out")),
        "record src/": record_of("src/autograd_lens/reach.py"),
        "record docs/zh/pitfalls": record_of("docs/zh/pitfalls"),
        "record empty folder": record_of("snippets/pitfalls/zz-empty"),
        "figures render": [
            PY,
            "-m",
            "tools",
            "figures",
            "render",
            "figures/fundamentals/dynamic-graph/blob_fig.py",
        ],
        "downloads script nope": [PY, "-m", "tools", "downloads", "script", "en", "pitfalls/nope.md"],
        "downloads script no .md": [PY, "-m", "tools", "downloads", "script", "en", "pitfalls/hook-aliases"],
        "downloads write /proc": [PY, "-m", "tools", "downloads", "write", "/proc/drill4"],
        "downloads notebook README": [PY, "-m", "tools", "downloads", "notebook", "en", "../../README.md"],
    }
)
WHICH.update(
    {
        "a02-faq-source-closes-link": ["faq write", "faq test"],
        "a02b-duplicate-source-quote": ["faq write"],
        "a05-faq-title-html": ["faq write"],
        "a05b-faq-title-svg-zh": ["faq write"],
        "a07-faq-answer-a-javascript": ["faq write"],
        "a07b-faq-answer-entity-javascript": ["faq write"],
        "a08-factcheck-section-img": ["fact-check test", "build"],
        "a08b-factcheck-quote-script": ["fact-check test", "build"],
        "a10-glossary-script": ["pytest -k glossary", "build"],
        "a10b-glossary-img-zh": ["pytest -k glossary", "build"],
        "a11-pin-subject-script": ["pins test", "build"],
        "a12-include-climbs-out": ["pytest -k page", "build"],
        "a13-include-absolute": ["pytest -k page", "build"],
        "a14b-symlink-out-cpp": ["pytest -k page", "build"],
        "a14c-block-include-out": ["pytest -k page", "build"],
        "a15-symlinked-record": ["pytest -k page", "build"],
        "a16b-git-config-cpp": ["pytest -k page", "build"],
        "a17-prints-secret": ["record"],
        "a18-prints-user-host": ["record"],
        "a19-reads-home-cache": ["record"],
        "a20-downloads": ["record"],
        "a20b-raw-socket": ["record"],
        "a25-author-path": ["record"],
        "a25b-windows-path": ["record"],
        "b1-figure-shared-module": ["figure cache"],
        "b2-matplotlibrc": ["rc key"],
        "c1-no-cwd-left": ["record (cwd)"],
        "c2-two-records-at-once": ["two records"],
        "c4-disk-full-record": ["record (12 KB disk)"],
        "c5-read-only-folder": ["record"],
        "c6-disk-full-build": ["build (4 MB disk)"],
        "c8-stale-figure-tmp": ["figures build"],
        "c9-damaged-build-cache": ["build cache"],
        "d2-ascii-output-encoding": ["record"],
        "d5b-system-python": ["record (system python)"],
        "d6-taken-port": ["make serve"],
        "d7-foreign-torch": ["record", "pytest -k page"],
        "d8-helper-of-this-checkout": ["helper tests"],
        "e1-number-in-one-language": ["pytest -k page", "build"],
        "e1b-number-in-zh": ["pytest -k page"],
        "e2-warning-dropped": ["pytest -k page", "build"],
        "e2b-warning-made-a-note": ["pytest -k page"],
        "e3-untranslated-answer": ["faq write"],
        "e3b-untranslated-title-zh": ["faq write"],
        "e4-verdict-flipped": ["fact-check test", "build"],
        "e4b-verdict-and-lead-flipped": ["fact-check test"],
        "e5-pin-line": ["pins test", "build"],
        "e6-pin-zh-only": ["pins test"],
        "e7-other-claim-linked": ["pytest -k page", "build"],
        "f10-empty-snippet": ["record empty.py"],
        "f12-record-a-record": ["record hooks.out"],
        "f13-record-outside-snippets": ["record src/"],
        "f14-record-a-docs-folder": ["record docs/zh/pitfalls"],
        "f14b-record-empty-folder": ["record empty folder"],
        "f15-figure-nul-bytes": ["figures render", "build"],
        "f17-downloads-missing-page": ["downloads script nope"],
        "f17b-downloads-page-without-md": ["downloads script no .md"],
        "f18-downloads-unwritable": ["downloads write /proc"],
        "f19-downloads-outside-docs": ["downloads notebook README"],
    }
)
# Environment of a fault's commands, over the drill's own.
ENV = {
    "a15-symlinked-record": {"DRILL_DEPLOY_TOKEN": "ghs_drill0123456789deploy"},
    "a17-prints-secret": {"DRILL_API_TOKEN": "ghp_drill0123456789secret"},
    "d2-ascii-output-encoding": {"PYTHONIOENCODING": "ascii"},
    "d7-foreign-torch": {"PYTHONPATH": "/tmp/drill-foreign-torch:{clone}/src:{clone}"},
}
TIMEOUT = {"make serve": 180}  # a serve that is not refused runs until stopped: NOT caught


@contextlib.contextmanager
def setup(name: str):
    """What a fault needs around its commands: a server, a mount, a taken port."""
    made = []
    try:
        if name in ("a20-downloads", "a20b-raw-socket"):
            import http.server
            import threading

            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            STATE["port"] = server.server_address[1]
            made.append(server.shutdown)
        if name == "d6-taken-port":
            import socket

            taken = socket.socket()
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            STATE["port"] = taken.getsockname()[1]
            made.append(taken.close)
        if name == "d7-foreign-torch":
            fake = Path("/tmp/drill-foreign-torch/torch")
            fake.mkdir(parents=True, exist_ok=True)
            (fake / "__init__.py").write_text("raise ImportError('not the pinned torch')\n")
        if name == "c4-disk-full-record":  # a 12 KB disk under the snippet's folder
            folder = CLONE / "snippets/pitfalls/hook-aliases"
            saved = Path(tempfile.mkdtemp(prefix="drill-saved-"))
            shutil.copytree(folder, saved / "f")
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", str(folder)], check=True)
            made.append(lambda: subprocess.run(["umount", "-l", str(folder)], check=False))
            for item in (saved / "f").iterdir():
                shutil.copy2(item, folder / item.name)
        if name == "c5-read-only-folder":
            in_section('print("one more line")')
            folder = str(CLONE / "snippets/pitfalls/hook-aliases")
            subprocess.run(["mount", "--bind", folder, folder], check=True)
            subprocess.run(["mount", "-o", "remount,bind,ro", folder], check=True)
            made.append(lambda: subprocess.run(["umount", "-l", folder], check=False))
        if name == "c6-disk-full-build":
            Path("/tmp/drill-tmpfs").mkdir(exist_ok=True)
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", "/tmp/drill-tmpfs"], check=True)
            made.append(lambda: subprocess.run(["umount", "-l", "/tmp/drill-tmpfs"], check=False))
        yield
    finally:
        for undo in reversed(made):
            undo()
        STATE.clear()
        shutil.rmtree(Path.home() / ".cache" / "drill4-author", ignore_errors=True)


INTERESTING = re.compile(
    r"(docs/|snippets/|figures/|data/|benchmarks/|Figure script|error|Error|stale|refresh|timed out|fails|failed"
    r"|held|PYTHONPATH|Cannot|taken|free|venv|not under|is empty|is a record|does not exist|is not a page)"
)


def reset():
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=CLONE, check=True)
    subprocess.run(
        ["git", "clean", "-fdq", "--", "docs", "snippets", "figures", "data", "tests", "benchmarks", "src"],
        cwd=CLONE,
        check=True,
    )
    (CLONE / "matplotlibrc").unlink(missing_ok=True)


_PYTEST_ERROR = re.compile(
    r"^E\s+(?:\w+(?:Error|Exception): )?(?P<message>\S.*(?:docs|snippets|figures|data)/.*)$"
)


_SKIP = ("====", "____", "----", "[gw", "+", "..", "Traceback", ".venv/", "make", "Aborted with", 'File "')


def first_message(text: str) -> str:
    for line in text.splitlines():  # pytest's own "E   ..." lines say it best
        m = _PYTEST_ERROR.match(line.strip())
        if m and not m["message"].startswith(("assert ", "where ", "+", "-")):
            return m["message"][:260]
    for line in text.splitlines():  # then MkDocs' own error line
        if line.startswith("ERROR") and len(line) > 20 and "Error reading page" not in line:
            return line.strip()[:260]
    crash = re.search(r"Fatal Python error: .*", text)
    if crash:
        return crash.group(0)[:260]
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("E   ") or line.startswith("E  "):
            line = line[1:].strip()
        if not line or line.startswith(_SKIP) or "│" in line:
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
        if INTERESTING.search(line) and "│" not in line and not line.strip().startswith(_SKIP):
            return line.strip()[:260]
    return "(no message found)"


def drill(clone: Path, out: Path, only: list[str]) -> None:
    global CLONE, OUT_DIR
    CLONE = clone.resolve()
    OUT_DIR = out.resolve().parent
    rows = []
    for name, inject in FAULTS.items():
        if only and name not in only:
            continue
        reset()
        with setup(name):
            inject()
            for cmd in WHICH.get(name, ["test-fast"]):
                rows.append(_run(name, cmd))
                print(rows[-1], flush=True)
    reset()
    table = [
        "| fault | command | caught? | s | traceback? | first line of the message |",
        "|---|---|---|---|---|---|",
    ]
    table += [f"| {a} | `{b}` | {c} | {d} | {t} | {e} |" for a, b, c, d, t, e in rows]
    out.write_text("\n".join(table) + "\n")
    print("\n".join(table))


def _run(name: str, cmd: str) -> tuple:
    fill = {"clone": str(CLONE), "port": str(STATE.get("port", ""))}
    argv = [a.format(**fill) if "{" in a and "}" in a and len(a) < 80 else a for a in COMMANDS[cmd]]
    env = {**os.environ, "PYTHONPATH": f"{CLONE}/src:{CLONE}", "NO_MKDOCS_2_WARNING": "1"}
    env.update({k: v.format(**fill) for k, v in ENV.get(name, {}).items()})
    limit = TIMEOUT.get(cmd, 900)
    start = time.perf_counter()
    try:
        proc = subprocess.run(argv, cwd=CLONE, capture_output=True, text=True, timeout=limit, env=env)
        log, rc = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired:
        log, rc = f"(timed out after {limit} s)", None
    seconds = time.perf_counter() - start
    (OUT_DIR / f"fault-{name}-{cmd.replace(' ', '_').replace('/', '_')}.log").write_text(log)
    traceback = "yes" if "Traceback (most recent call last)" in log else "no"
    if name in HELD:  # the checker exits 0 when the fault was neutralised
        caught = "held" if rc == 0 else "NO"
        msg = next(
            (ln.strip() for ln in log.splitlines() if ln.startswith(("held", "NOT held"))), first_message(log)
        )
    else:
        caught = "yes" if rc not in (0, None) else "NO"
        msg = (
            first_message(log)
            if caught == "yes"
            else f"(passed: NOT caught{', timed out' if rc is None else ''})"
        )
    return (name, cmd, caught, f"{seconds:.0f}", traceback, msg.replace("|", "\\|"))


OUT_DIR = Path("/tmp")  # the folder of the table: each command's log goes beside it
