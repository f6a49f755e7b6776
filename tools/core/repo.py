"""Where things are in the repository, and what every tool shares.

One place for the layout (``ROOT``, ``DOCS``, ``SNIPPETS``, ``FIGURES``, ``LANGS``),
repo-relative names for messages (``rel``), the environment a child process runs
snippets and figure scripts in (``child_env``), the test for Chinese text (``CJK``)
and CUDA detection.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
FIGURES = ROOT / "figures"
LANGS = ("zh", "en")

# CJK Unified Ideographs: enough to tell Chinese prose from English.
CJK = re.compile(r"[\u4e00-\u9fff]")


def rel(path: Path | str) -> str:
    """``path`` relative to the repository root, for messages (as given if outside)."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def child_env() -> dict[str, str]:
    """Environment for a child that runs repository code (snippets, figure scripts)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])]
    )
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONIOENCODING"] = "utf-8"  # what a page shows is UTF-8, whatever the shell says
    env.setdefault("MPLBACKEND", "Agg")
    env.setdefault("OMP_NUM_THREADS", "1")  # same float summation order on every machine
    return env


# Packages the tools run, and that a folder on PYTHONPATH must not shadow.
NEEDED = ("click", "yaml", "torch", "numpy", "matplotlib")
VENV_HINT = "run it with .venv/bin/python (make setup creates .venv from requirements.lock)"


def environment_problem() -> str | None:
    """Why this interpreter cannot run the tools, in one line, or None.

    A missing package means the venv is not the interpreter (``python3 -m tools``);
    a package found in a PYTHONPATH folder shadows the pinned one (another torch).
    """
    import importlib.util

    shadowing = [
        Path(entry)
        for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep)
        if entry and Path(entry).resolve() not in (ROOT, ROOT / "src")
    ]
    for folder in shadowing:
        for name in NEEDED:
            if (folder / name / "__init__.py").is_file() or (folder / f"{name}.py").is_file():
                return (
                    f"PYTHONPATH holds {folder}, whose {name} package shadows the one pinned in "
                    f"requirements.lock: the pages would show another {name}'s output. Unset "
                    f"PYTHONPATH (or remove {folder} from it) and run again."
                )
    for name in NEEDED:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return f"{sys.executable} has no {name} package: {VENV_HINT}."
    return None


def helper_problem() -> None:
    """The tests test this checkout: a ToolError when the interpreter cannot run the
    tools (``environment_problem``) or imports ``autograd_lens`` from elsewhere (a
    clone sharing another checkout's venv, whose editable install points there)."""
    from tools.core.errors import ToolError

    problem = environment_problem()
    if problem:
        raise ToolError(problem)
    import autograd_lens

    found = Path(autograd_lens.__file__).resolve()
    if not found.is_relative_to(ROOT / "src"):
        raise ToolError(
            f"autograd_lens is imported from {found.parent}, not from this checkout's src/: "
            f"put {ROOT / 'src'} first on sys.path (tests/conftest.py does), or make this "
            "checkout its own venv (make setup)."
        )


@cache
def cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def page_lang(src_uri: str, config=None) -> tuple[str, str]:
    """The language of a page being built, and its path inside ``docs/<lang>/``.

    mkdocs-static-i18n gives each page a ``<lang>/...`` source path; a page outside
    the language folders (or no page: ``""``) takes the build's theme language.
    """
    first, _, rest = src_uri.partition("/")
    if first in LANGS:
        return first, rest
    theme = config.theme.get("language") if config is not None else None
    lang = str(theme or LANGS[0]).split("_")[0].split("-")[0]
    return (lang if lang in LANGS else LANGS[0]), src_uri


TEXT_GLOBS = ("docs/**/*.md", "snippets/**/*.py", "snippets/**/*.out", "data/**/*.yml", "figures/**/*.py")


def read_text(path: Path | str) -> str:
    """A repository text file as UTF-8; a byte that is not UTF-8 is an error naming
    the file, line and column (never a UnicodeDecodeError traceback)."""
    data = Path(path).read_bytes()
    nul = data.find(b"\0")
    if nul >= 0:
        from tools.core.errors import ToolError

        line = data.count(b"\n", 0, nul) + 1
        raise ToolError(
            f"{rel(path)}:{line}: holds a NUL byte, so it is not a text file (a binary file "
            "saved under a text name, or a damaged one). Restore it from git "
            f"(git checkout -- {rel(path)}) or save it again as UTF-8 text."
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        from tools.core.errors import ToolError

        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise ToolError(
            f"{rel(path)}:{line}:{column}: byte 0x{data[err.start]:02x} is not UTF-8. Save the "
            "file as UTF-8 (the character was probably typed or pasted in another encoding, "
            "such as cp1252 or GBK)."
        ) from None


# Folders whose files are published or run: they hold plain files, never symbolic links
# (a link could publish any file of the machine, /proc/self/environ or .git/config).
PLAIN_FOLDERS = ("docs", "snippets", "figures", "data", "src", "benchmarks", "overrides")


def check_text_files() -> None:
    """Every page, snippet, record, data file and figure script reads as UTF-8 text,
    and the published folders hold no symbolic link."""
    for folder in PLAIN_FOLDERS:
        for dirpath, dirnames, filenames in os.walk(ROOT / folder):
            for name in [*dirnames, *filenames]:
                path = Path(dirpath, name)
                if path.is_symlink():
                    from tools.core.errors import ToolError

                    name = path.relative_to(ROOT).as_posix()  # rel() would follow the link
                    raise ToolError(
                        f"{name} is a symbolic link (to {os.readlink(path)}): {folder}/ is "
                        "published and run as it is, so it holds plain files only. Copy what "
                        f"you need into it instead, and delete the link (rm {name})."
                    )
    for pattern in TEXT_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            read_text(path)


def source_repository() -> tuple[str, str] | None:
    """(repository URL, commit) when the build names its source (SOURCE_REPOSITORY, set
    by the Pages workflow), else None. The commit is SITE_COMMIT (the workflow passes
    the tested commit), else this checkout's HEAD; never GITHUB_SHA, which under
    workflow_run names main's newest commit, not the one tested and built."""
    import os
    import subprocess

    url = os.environ.get("SOURCE_REPOSITORY")
    if not url:
        return None
    commit = os.environ.get("SITE_COMMIT")
    if not commit:
        try:
            out = subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
            )
        except OSError:
            return None
        commit = out.stdout.strip()
    return (url.rstrip("/"), commit) if commit else None
