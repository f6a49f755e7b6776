"""The stamp on the first lines of a recorded output: what produced it.

    # recorded from code sha256:3f2a9c0d1e4b5a67 inputs sha256:9b1c... output sha256:77d0... with torch 2.13.0
    # inputs: src/autograd_lens/graph.py benchmarks/results/cpu/x.json

``code`` hashes the snippet file's bytes, ``inputs`` the repository files the run
opened or imported (noted by ``tools.snippets.guard``; the helper package counts
whole when the snippet imports it), ``output`` the record below the stamp. The build
refuses a record whose stamp no longer matches (``tools.pages.checks``): an edited
snippet, helper or data file, or a record edited by hand. ``check`` tells "the code
changed" apart from "the output changed". The lines sit outside every section, so no
page shows them.
"""

from __future__ import annotations

import ast
import hashlib
import re
from pathlib import Path

from tools.core.repo import ROOT

HELPER = ROOT / "src" / "autograd_lens"
_STAMP = re.compile(
    r"^# recorded from code sha256:(?P<hash>[0-9a-f]{16}) inputs sha256:(?P<inputs>[0-9a-f]{16}) "
    r"output sha256:(?P<output>[0-9a-f]{16}) with torch (?P<torch>\S+)\n# inputs:(?P<files>[^\n]*)\n"
)


def file_hash(path: Path) -> str:
    """SHA-256 (hex) of a snippet file's bytes: what records and version results are keyed on."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def code_hash(snippet: Path) -> str:
    """The stamp's short form of ``file_hash``."""
    return file_hash(snippet)[:16]


def _short(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def inputs_hash(files: list[str]) -> str:
    """One hash over the repository files a run read (a missing one counts as changed)."""
    h = hashlib.sha256()
    for name in sorted(files):
        path = ROOT / name
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"<missing>") + b"\0")
    return h.hexdigest()[:16]


def source_of(path: str) -> str:
    """``pkg/__pycache__/m.cpython-311.pyc`` -> ``pkg/m.py``: the file a reader edits."""
    p = Path(path)
    if p.parent.name == "__pycache__" and p.suffix == ".pyc":
        return str(p.parent.parent / (p.name.split(".")[0] + ".py"))
    return path


def run_inputs(snippet: Path, opened: list[str]) -> list[str]:
    """The repository files a record depends on, besides the snippet itself."""
    files = {source_of(p) for p in opened}
    tree = ast.parse(Path(snippet).read_bytes())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
    }
    if "autograd_lens" in imported:  # preloaded by the fork server: never opened by the run
        files |= {str(p.relative_to(ROOT)) for p in HELPER.rglob("*.py")}
    own = Path(snippet).resolve()
    own_name = str(own.relative_to(ROOT)) if own.is_relative_to(ROOT) else None
    return sorted(f for f in files if f != own_name and (ROOT / f).is_file())


def torch_version() -> str:
    from importlib import metadata

    return metadata.version("torch")


def stamp_lines(snippet: Path, inputs: list[str], body: str, torch: str | None = None) -> str:
    return (
        f"# recorded from code sha256:{code_hash(snippet)} inputs sha256:{inputs_hash(inputs)} "
        f"output sha256:{_short(body.encode())} with torch {torch or torch_version()}\n"
        f"# inputs:{''.join(' ' + f for f in sorted(inputs))}\n"
    )


def split(record_text: str) -> tuple[dict | None, str]:
    """(stamp fields or None, the record without its stamp lines)."""
    m = _STAMP.match(record_text)
    if not m:
        return None, record_text
    fields = {k: m[k] for k in ("hash", "inputs", "output", "torch")}
    fields["files"] = m["files"].split()
    return fields, record_text[m.end() :]


def stale_reason(snippet: Path, record: Path) -> str | None:
    """Why ``record`` cannot be the output of ``snippet`` as it is now, or None."""
    stamp, body = split(record.read_text(encoding="utf-8"))
    if stamp is None:
        return "it carries no stamp of what produced it (recorded by an older tool)"
    now = code_hash(snippet)
    if stamp["hash"] != now:
        return f"the snippet changed since it was recorded (code sha256 {stamp['hash']} then, {now} now)"
    if stamp["inputs"] != inputs_hash(stamp["files"]):
        changed = [f for f in stamp["files"] if not (ROOT / f).is_file()] or stamp["files"]
        return (
            "a repository file the snippet reads or imports changed since it was recorded "
            f"(one of: {', '.join(changed[:6])}{' ...' if len(changed) > 6 else ''})"
        )
    if stamp["output"] != _short(body.encode()):
        return "the record was edited after it was recorded (its text no longer matches its output hash)"
    return None
