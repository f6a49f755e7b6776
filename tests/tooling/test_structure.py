"""The code stays easy to read: short functions; tools/ as a few packages with one
hook, one command line and no import cycles."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from tools.core.errors import ToolError
from tools.core.repo import ROOT

MAX_FUNCTION_LINES = 60  # def line to last line, docstring included
CHECKED = ("tools", "src", "benchmarks")
HOOK = "tools/site/hooks.py"
MAX_TOOLS_ENTRIES = 12


def _modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def long_functions(paths: list[Path], limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """``file:function:lines`` for every function (or method) longer than ``limit``."""
    found = []
    for path in paths:
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(ROOT).as_posix()}:{node.name}:{lines}")
    return found


def test_no_function_is_over_sixty_lines():
    too_long = long_functions(_modules(*CHECKED))
    assert not too_long, (
        f"functions over {MAX_FUNCTION_LINES} lines (file:function:lines): {too_long}; "
        "split each into well-named steps"
    )


def test_the_length_check_names_file_function_and_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    (tmp_path / "long.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}\n")
    assert long_functions([tmp_path / "long.py"]) == ["long.py:long:61"]


def test_tools_is_a_few_packages():
    entries = sorted(p.name for p in (ROOT / "tools").iterdir() if p.name != "__pycache__")
    assert len(entries) <= MAX_TOOLS_ENTRIES, f"tools/ has {len(entries)} entries: {entries}"
    loose = [e for e in entries if e.endswith(".py") and e not in ("__init__.py", "__main__.py")]
    assert not loose, f"{loose}: put each module in the package of its capability"


def _defines_events(path: Path) -> list[str]:
    names = []
    for node in _tree(path).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        names += [t.id for t in targets if isinstance(t, ast.Name)]
    return [n for n in names if n.startswith("on_")]


def test_one_hook_wires_every_handler():
    from tools.pages.parse import mkdocs_config

    assert mkdocs_config()["hooks"] == [HOOK], "mkdocs.yml lists one hook: tools/site/hooks.py"
    others = [
        f"{p.relative_to(ROOT).as_posix()}:{n}"
        for p in _modules("tools")
        if p.relative_to(ROOT).as_posix() != HOOK
        for n in _defines_events(p)
    ]
    assert not others, (
        f"{others}: only {HOOK} defines on_<event> names; give the handler a name that says "
        "what it does and add it to the table there"
    )


# Reading sys.argv, not setting it (the worker sets a snippet's own argv).
ARGUMENT_PARSING = re.compile(
    r"^\s*(import argparse|import click|from click|.*\bsys\.argv\b(?!\s*=[^=]))", re.M
)


def test_only_the_command_line_parses_arguments():
    found = [
        p.relative_to(ROOT).as_posix()
        for p in _modules("tools")
        if p.name not in ("cli.py", "__main__.py") and ARGUMENT_PARSING.search(p.read_text(encoding="utf-8"))
    ]
    assert not found, f"{found}: parse arguments only in a package's cli.py (python -m tools)"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tools"):
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("tools"))
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_cycles():
    modules = {_module_name(p): p for p in _modules("tools")}
    graph = {
        name: sorted(m for m in _imports(path) if m in modules and m != name)
        for name, path in modules.items()
    }
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> list[str] | None:
        state[name] = 1
        for dep in graph[name]:
            if state.get(dep) == 1:
                return [*trail, name, dep]
            if dep not in state and (cycle := visit(dep, [*trail, name])):
                return cycle
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name, [])):
            pytest.fail(f"import cycle: {' -> '.join(cycle)}", pytrace=False)


def test_the_command_line_lists_every_command():
    from click.testing import CliRunner

    from tools.__main__ import main

    top = CliRunner().invoke(main, ["--help"])
    assert top.exit_code == 0, top.output
    for group, commands in {
        "snippets": ["record", "check", "run"],
        "figures": ["build", "render"],
        "faq": ["write", "check"],
        "glossary": ["words"],
        "downloads": ["script", "notebook", "write"],
        "versions": ["run", "summary"],
        "new": ["page"],
        "dev": ["drill"],
    }.items():
        assert group in top.output
        sub = CliRunner().invoke(main, [group, "--help"])
        assert sub.exit_code == 0 and all(c in sub.output for c in commands), sub.output


def test_the_hook_turns_a_tool_error_into_a_build_error():
    from mkdocs.exceptions import PluginError

    from tools.core.errors import ToolError
    from tools.pages.parse import mkdocs_config  # noqa: F401  (tools is importable)

    spec = importlib.util.spec_from_file_location("site_hooks_under_test", ROOT / HOOK)
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)

    def bad(markdown, **kwargs):
        raise ToolError("docs/x.md:3: what is wrong; what to do")

    (handler,) = hooks._handlers((7, bad)).methods
    assert handler.mkdocs_priority == 7
    with pytest.raises(PluginError, match="docs/x.md:3: what is wrong"):
        handler("text", page=None)


def test_contributing_maps_every_module():
    from tools.dev.contributing import CONTRIBUTING, tools_map, with_map

    text = CONTRIBUTING.read_text(encoding="utf-8")
    assert with_map(text, tools_map()) == text, (
        "CONTRIBUTING.md's map of tools/ differs from the packages' docstrings: run python -m tools dev map"
    )


def test_new_page_scaffold_writes_both_languages_the_snippet_and_nav(tmp_path, monkeypatch):
    from tools.dev import scaffold

    (tmp_path / "docs" / "zh").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("nav:\n  - Pitfalls:\n      - pitfalls/amp.md\n", encoding="utf-8")
    monkeypatch.setattr(scaffold, "ROOT", tmp_path)
    monkeypatch.setattr(scaffold, "DOCS", tmp_path / "docs")
    monkeypatch.setattr(scaffold, "SNIPPETS", tmp_path / "snippets")
    written = scaffold.new_page("pitfalls/new-trap")
    names = sorted(p.relative_to(tmp_path).as_posix() for p in written)
    assert names == [
        "docs/en/pitfalls/new-trap.md",
        "docs/zh/pitfalls/new-trap.md",
        "mkdocs.yml",
        "snippets/pitfalls/new-trap/new_trap.py",
    ]
    assert "      - pitfalls/new-trap.md" in (tmp_path / "mkdocs.yml").read_text(encoding="utf-8")
    zh = (tmp_path / "docs/zh/pitfalls/new-trap.md").read_text(encoding="utf-8")
    assert '--8<-- "pitfalls/new-trap/new_trap.py:first"' in zh
    with pytest.raises(ToolError, match="already exist"):
        scaffold.new_page("pitfalls/new-trap")
    with pytest.raises(ToolError, match="no section with pages under scenarios/"):
        scaffold.new_page("scenarios/x")


def test_the_scaffolded_snippet_runs(tmp_path):
    import subprocess
    import sys

    from tools.dev.scaffold import SNIPPET

    path = tmp_path / "first.py"
    path.write_text(SNIPPET.format(title="First"), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "False", proc.stderr


def _keys(value, where: str = "") -> set[str]:
    if isinstance(value, dict):
        return {where} | {k for key, v in value.items() for k in _keys(v, f"{where}.{key}")}
    return {where}


def test_the_ui_catalogue_has_the_same_keys_in_both_languages():
    from tools.core.i18n import UI

    for area, langs in UI.items():
        assert set(langs) == {"zh", "en"}, f"tools/core/i18n.py, {area}: languages {sorted(langs)}"
        only = _keys(langs["zh"]) ^ _keys(langs["en"])
        assert not only, f"tools/core/i18n.py, {area}: keys in one language only: {sorted(only)}"


def test_reader_strings_live_in_the_catalogue():
    """A module that writes what readers see (HTML, Markdown, page machinery) takes its
    zh/en words from tools/core/i18n.py, never from a dict of its own: one place for a
    translator (structure review S3). Format vocabularies that authors write in data
    (the fact check's verdict leads) live with their loader and are not reader UI."""
    writers = [
        p
        for p in sorted((ROOT / "tools").rglob("*.py"))
        if p.name
        in {"render.py", "html.py", "machinery.py", "notes.py", "reader_html.py", "finish.py", "generate.py"}
        or p.parent.name in {"site", "build"}
    ]
    found = []
    for path in writers:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                strings = [v for v in node.values if isinstance(v, (ast.Constant, ast.Dict, ast.JoinedStr))]
                if {"zh", "en"} <= keys and len(strings) == len(node.values):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "zh/en strings outside tools/core/i18n.py (move them into UI): " + ", ".join(found)
