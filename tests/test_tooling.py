"""The tooling fails loudly and helpfully: stale records, bad snippets, bad figures,
missing includes, invalid workflows."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import figure_build as fig_tools
from tools import pages
from tools import snippet_records as records
from tools.page_code import expand
from tools.repo import ROOT
from tools.snippet_source import SnippetError, parse


def _snippet(tmp_path: Path, body: str, name: str = "demo.py") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def test_sections_become_record_sections(tmp_path, fork_server):
    path = _snippet(tmp_path, "print('setup')\n# --8<-- [start:a]\nprint('in a')\n# --8<-- [end:a]\n")
    assert records.fresh(path, fork_server) == "setup\n# --8<-- [start:a]\nin a\n# --8<-- [end:a]\n"


def test_stale_record_shows_a_diff_and_the_refresh_command(tmp_path, fork_server):
    path = _snippet(tmp_path, "# --8<-- [start:a]\nprint(1 + 1)\n# --8<-- [end:a]\n")
    records.record(path, fork_server)
    path.with_suffix(".out").write_text("# --8<-- [start:a]\n3\n# --8<-- [end:a]\n")
    with pytest.raises(SnippetError) as err:
        records.check(path, fork_server)
    message = str(err.value)
    assert "-3" in message and "+2" in message
    assert "make outputs" in message and "tools.snippets record" in message


def test_missing_record_says_how_to_make_it(tmp_path, fork_server):
    path = _snippet(tmp_path, "print('x')\n")
    with pytest.raises(SnippetError, match="has no recorded output.*make outputs"):
        records.check(path, fork_server)


def test_failing_snippet_names_file_and_line(tmp_path, fork_server):
    body = "x = 1\n# --8<-- [start:a]\nassert x == 2, 'claim is false'\n# --8<-- [end:a]\n"
    path = _snippet(tmp_path, body)
    with pytest.raises(SnippetError) as err:
        records.fresh(path, fork_server)
    message = str(err.value)
    assert "demo.py" in message and "line 3" in message and "claim is false" in message


def test_memory_addresses_are_refused(tmp_path, fork_server):
    path = _snippet(tmp_path, "print(object())\n")
    with pytest.raises(SnippetError, match="memory address"):
        records.fresh(path, fork_server)


def test_subprocess_runner_matches_fork_runner(tmp_path, fork_server):
    body = "# --8<-- [start:a]\nimport torch\nprint(torch.arange(3))\n# --8<-- [end:a]\n"
    fork = records.fresh(_snippet(tmp_path, body, "a.py"), fork_server)
    sub = records.fresh(_snippet(tmp_path, "# runner: subprocess\n" + body, "b.py"))
    assert fork == sub


@pytest.mark.parametrize(
    "body, match",
    [
        ("# --8<-- [start:a]\n# --8<-- [start:b]\n", "cannot nest"),
        ("# --8<-- [end:a]\n", "without its start"),
        ("# --8<-- [start:a]\nx = 1\n", "never closed"),
        ("if True:\n    # --8<-- [start:a]\n    pass\n", "column 0"),
        ("# --8<-- [start:a]\n# --8<-- [end:a]\n# --8<-- [start:a]\n# --8<-- [end:a]\n", "twice"),
    ],
)
def test_malformed_sections(tmp_path, body, match):
    with pytest.raises(SnippetError, match=match):
        parse(_snippet(tmp_path, body))


@pytest.mark.parametrize(
    "body, match",
    [
        ('"""Doc."""\nx = 1\n# timeout: 300\n', r"demo.py:3: .*comes after code"),
        ("# requires: gpu\n", r"demo.py:1: unknown requirement gpu .*known: cuda"),
        ("# timeout: 2m\n", r"demo.py:1: '# timeout: 2m' must be a whole number"),
        ("# runner: thread\n", r"demo.py:1: unknown runner 'thread'"),
        ("# cpu-smoke: maybe\n", r"demo.py:1: .*must be yes or no"),
        ("x = (\n", r"demo.py:1: syntax error"),
    ],
)
def test_bad_headers_fail_naming_file_and_line(tmp_path, body, match):
    with pytest.raises(SnippetError, match=match):
        parse(_snippet(tmp_path, body))


def test_a_header_below_the_docstring_counts(tmp_path):
    path = _snippet(tmp_path, '"""Doc."""\n# timeout: 300\n# requires: cuda\nx = 1\n')
    snippet = parse(path)
    assert snippet.timeout == 300 and snippet.needs_cuda


def test_missing_include_fails_naming_the_file():
    from pymdownx.snippets import SnippetMissingError

    with pytest.raises(SnippetMissingError, match="no/such/file.py"):
        expand('--8<-- "no/such/file.py"')


def test_missing_section_fails():
    from pymdownx.snippets import SnippetMissingError

    with pytest.raises(SnippetMissingError, match="no-such-section"):
        expand('--8<-- "internals/what-detach-does/detach_basics.py:no-such-section"')


def test_failing_figure_script_names_the_script(tmp_path, monkeypatch):
    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    script = tmp_path / "broken.py"
    script.write_text("def draw(lang):\n    raise ValueError('bad data for ' + lang)\n")
    with pytest.raises(fig_tools.FigureError) as err:
        fig_tools.build_one(script)
    message = str(err.value)
    assert "broken.py" in message and "bad data for zh" in message
    assert "python -m tools.figures render" in message


def test_figure_script_without_draw_is_rejected(tmp_path, monkeypatch):
    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    script = tmp_path / "nodraw.py"
    script.write_text("X = 1\n")
    with pytest.raises(fig_tools.FigureError, match="defines no draw"):
        fig_tools.build_one(script)


def test_figure_cache_is_reused(tmp_path, monkeypatch):
    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    script = tmp_path / "ok.py"
    script.write_text(
        "import matplotlib.pyplot as plt\n"
        "def draw(lang):\n"
        "    fig, ax = plt.subplots()\n"
        "    ax.set_title({'zh': '计算图', 'en': 'graph'}[lang])\n"
        "    return fig\n"
    )
    first = fig_tools.build_one(script)
    stamp = {p: p.stat().st_mtime_ns for p in first.values()}
    second = fig_tools.build_one(script)  # would fail if it re-ran: nothing else changed
    assert first == second and {p: p.stat().st_mtime_ns for p in second.values()} == stamp


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


def test_a_figure_runs_a_snippets_sections_with_its_line_numbers(tmp_path):
    from tools.snippet_code import run_sections

    path = _snippet(
        tmp_path,
        "# --8<-- [start:a]\nx = 2\n# --8<-- [end:a]\n"
        "# --8<-- [start:b]\ny = x * 3\nassert y == 7\n# --8<-- [end:b]\n",
    )
    assert run_sections(path, "a")["x"] == 2
    with pytest.raises(AssertionError) as err:
        run_sections(path, "a", "b")
    assert (err.traceback[-1].path, err.traceback[-1].lineno + 1) == (path, 6)
    with pytest.raises(ValueError, match=r"demo.py: no section\(s\) \['c'\]; it has \['a', 'b'\]"):
        run_sections(path, "a", "c")


@pytest.mark.parametrize("only", ["zh", "en", None])
def test_serve_can_build_one_language(monkeypatch, only):
    """`make serve ONLY=zh` sets ONLY_LANG, which mkdocs.yml gives the i18n plugin."""
    from mkdocs.config import load_config

    if only:
        monkeypatch.setenv("ONLY_LANG", only)
    else:
        monkeypatch.delenv("ONLY_LANG", raising=False)
    i18n = load_config(str(ROOT / "mkdocs.yml")).plugins["i18n"].config
    built = sorted(lang.locale for lang in i18n.languages if lang.build)
    assert built == ([only] if only else ["en", "zh"])


@pytest.mark.parametrize("only", ["en", "fr"])
def test_make_serve_passes_only_or_refuses_it(only):
    proc = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed", "serve", f"ONLY={only}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if only == "en":
        assert proc.returncode == 0 and "ONLY_LANG=en " in proc.stdout, proc.stdout + proc.stderr
    else:
        assert proc.returncode != 0 and "use ONLY=zh or ONLY=en" in proc.stderr, proc.stderr


def test_serve_forgets_the_previous_build():
    """mkdocstrings-python's functools.cache on its Jinja environment would keep every
    earlier build alive under `mkdocs serve`; the hook clears it before each build."""
    import jinja2
    from mkdocstrings_handlers.python._internal import rendering

    from tools import mkdocs_hooks

    env = jinja2.Environment(loader=jinja2.DictLoader({"a.html": ""}))
    assert rendering._test_existing_template(env, "a.html")
    assert rendering._test_existing_template.cache_info().currsize > 0
    mkdocs_hooks._forget_earlier_builds()
    assert rendering._test_existing_template.cache_info().currsize == 0
