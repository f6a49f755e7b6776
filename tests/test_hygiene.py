"""The code stays easy to read: short functions, one job per tool module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tools.repo import ROOT

MAX_FUNCTION_LINES = 60  # def line to last line, docstring included
CHECKED = ("tools", "src", "benchmarks")
# MkDocs events a hook module defines (mkdocs.plugins.BasePlugin's on_* names).
HOOK_EVENTS = frozenset(
    {
        "on_startup",
        "on_config",
        "on_pre_build",
        "on_files",
        "on_nav",
        "on_env",
        "on_page_markdown",
        "on_page_content",
        "on_page_context",
        "on_post_page",
        "on_post_build",
        "on_serve",
        "on_shutdown",
    }
)


# Names of functions that do another module's job: render, run, a command line.
OTHER_JOBS = re.compile(r"^_*(render|run_|draw|main$)")


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


def _is_main_guard(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "__name__" in ast.unparse(node.test)


def jobs(path: Path) -> set[str]:
    """Which of "hook" (MkDocs events) and "cli" (``main`` or a ``__main__`` block)
    a module does."""
    tree = _tree(path)
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    found = set()
    if names & HOOK_EVENTS:
        found.add("hook")
    if "main" in names or any(_is_main_guard(n) for n in tree.body):
        found.add("cli")
    return found


def other_jobs_in_hooks(paths: list[Path]) -> list[str]:
    """``file:function`` for each function of a hook module (one that defines MkDocs
    events) whose name says it renders, runs or is a command line."""
    found = []
    for path in paths:
        names = [n.name for n in _tree(path).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if HOOK_EVENTS.isdisjoint(names):
            continue
        found += [f"{path.relative_to(ROOT).as_posix()}:{name}" for name in names if OTHER_JOBS.match(name)]
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


def test_no_tool_module_is_both_a_hook_and_a_command_line():
    both = [p.relative_to(ROOT).as_posix() for p in _modules("tools") if jobs(p) == {"hook", "cli"}]
    assert not both, f"{both}: a MkDocs hook module and a command line in one; split them"


def test_hook_modules_only_handle_events():
    other = other_jobs_in_hooks(_modules("tools"))
    assert not other, (
        f"{other}: a MkDocs hook module that also renders, runs or is a command line; "
        "move the function into a module named for its job and call it from the hook"
    )


def test_the_hook_check_names_file_and_function(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "hook.py").write_text("def on_config(c):\n    return c\n\n\ndef render_bar():\n    pass\n")
    (tmp_path / "render.py").write_text("def render_bar():\n    pass\n")
    paths = [tmp_path / "hook.py", tmp_path / "render.py"]
    assert other_jobs_in_hooks(paths) == ["hook.py:render_bar"]
