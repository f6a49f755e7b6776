"""Where things are in the repository, and what every tool shares.

One place for the layout (``ROOT``, ``DOCS``, ``SNIPPETS``, ``FIGURES``, ``LANGS``),
repo-relative names for messages (``rel``), the environment a child process runs
snippets and figure scripts in (``child_env``), the test for Chinese text (``CJK``)
and CUDA detection.
"""

from __future__ import annotations

import os
import re
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
    env.setdefault("MPLBACKEND", "Agg")
    env.setdefault("OMP_NUM_THREADS", "1")  # same float summation order on every machine
    return env


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


def check_text_files() -> None:
    """Every page, snippet, record, data file and figure script reads as UTF-8."""
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
