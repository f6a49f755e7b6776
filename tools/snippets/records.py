"""Records: what a snippet printed, section by section, stored beside it as ``.out``.

A record wraps each named chunk's output in the same section markers as the code, so a
page can show ``y.out:name`` right under ``y.py:name``. Its first line is a stamp of the
code that produced it (``tools.snippets.stamp``), which the build checks. Lines longer
than the text column (``WIDTH``) are wrapped at spaces when recording: the words stay
exactly as printed, only line breaks are added (continuation lines keep the line's
indent).

``record`` runs a snippet twice, the second time under another hash seed, thread count
and date (``VARIANT``), and refuses output that differs between the runs (timings,
id() values, set order, dates, thread counts), naming the section and the line.
``check`` compares a record with a fresh run (as VARIANT) and fails with a diff and
the command that refreshes it (or, when a second run differs too, says the output is
not reproducible).
"""

from __future__ import annotations

import difflib
import re
import textwrap
from pathlib import Path

from tools.core import files, sections
from tools.core.repo import rel
from tools.snippets import scan
from tools.snippets import stamp as record_stamp
from tools.snippets.guard import CLOCK_SHIFT, HOST_NAME
from tools.snippets.runner import ForkServer, random_hash_seed, run, uses_server
from tools.snippets.source import Snippet, SnippetError, parse

REFRESH_HINT = "make outputs (or: .venv/bin/python -m tools snippets record {path})"  # the one refresh hint
# The second run of ``record`` (and every ``check``) runs as another reader's machine
# would: more threads, another day. Output that depends on either is caught.
VARIANT = {
    "OMP_NUM_THREADS": "2",
    "OMP_WAIT_POLICY": "PASSIVE",
    CLOCK_SHIFT: "400",
    # another reader: their login and host name (getpass and socket read these)
    "USER": "reader",
    "LOGNAME": "reader",
    "USERNAME": "reader",
    HOST_NAME: "readers-laptop",
}
VARIANT_TEXT = "2 threads, a clock 400 days ahead and another user and host name in run 2"
WIDTH = 79  # the text column holds about 84 monospace characters; code lines are <= 79

_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{8,}\b")


def wrap_output(text: str, width: int = WIDTH) -> str:
    """Break lines longer than ``width`` at spaces; words are never split or changed."""
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        if len(body) <= width:
            out.append(line)
            continue
        indent = body[: len(body) - len(body.lstrip(" "))]
        pieces = textwrap.wrap(
            body,
            width=width,
            subsequent_indent=indent,
            expand_tabs=False,
            replace_whitespace=False,
            break_long_words=False,
            break_on_hyphens=False,
        )
        out.append("\n".join(pieces) + line[len(body) :])
    return "".join(out)


def format_record(snippet: Snippet, outputs: list[str]) -> str:
    """Join chunk outputs; named chunks get section markers so pages can embed them."""
    parts = []
    for chunk, out in zip(snippet.chunks, outputs):
        out = wrap_output(out)
        parts.append(out if chunk.name is None else sections.wrap(chunk.name, out))
    return "".join(parts)


def fresh_run(
    path: Path,
    server: ForkServer | None = None,
    env: dict[str, str] | None = None,
    hash_seed: int | None = None,
    reader_checks: bool = True,
) -> tuple[str, list[str]]:
    """Run the snippet: (its record text without the stamp, the repository files it
    depends on). Raises SnippetError on failure."""
    snippet = parse(path)
    outcome = run(snippet, server, env, hash_seed, reader_checks)
    text = format_record(snippet, [out or "" for out in outcome.outputs])
    address = _ADDRESS.search(text)
    if address:
        raise SnippetError(
            f"{snippet.rel} printed a memory address ({address.group(0)}), which changes on "
            "every run. Print something stable instead, e.g. type(t.grad_fn).__name__ "
            "or a comparison of data_ptr() values."
        )
    return text, record_stamp.run_inputs(snippet.path, outcome.inputs)


def fresh(
    path: Path,
    server: ForkServer | None = None,
    env: dict[str, str] | None = None,
    hash_seed: int | None = None,
    reader_checks: bool = True,
) -> str:
    """Run the snippet and return its record text (without the stamp)."""
    return fresh_run(path, server, env, hash_seed, reader_checks)[0]


def _section_lines(text: str) -> list[tuple[str, int, str]]:
    """(section name or '(outside sections)', line number within it, line) of a record."""
    out = []
    for chunk in sections.split(text, "record"):
        name = chunk.name or "(outside sections)"
        out.extend((name, i, line) for i, line in enumerate(chunk.code.splitlines(), 1))
    return out


def unstable_message(snippet: Snippet, first: tuple[int, str], second: tuple[int, str]) -> str:
    """Name the first section and line that differ between two runs."""
    a, b = _section_lines(first[1]), _section_lines(second[1])
    where = "the number of lines"
    for (name, no, line_a), (_, _, line_b) in zip(a, b):
        if line_a != line_b:
            where = f"section {name!r}, line {no}:\n  run 1: {line_a}\n  run 2: {line_b}"
            break
    else:
        if len(a) != len(b):
            longer = a if len(a) > len(b) else b
            name, no, line = longer[min(len(a), len(b))]
            where = f"section {name!r}, line {no} is printed by one run only: {line}"
    return (
        f"{snippet.rel} prints different output on every run (run 1 with "
        f"PYTHONHASHSEED={first[0]}, run 2 with PYTHONHASHSEED={second[0]}, "
        f"{VARIANT_TEXT}); first difference in {where}\n"
        "A reader would see other output than the page shows. Print only what is the same "
        "on every run and every machine: no timings, dates, thread counts, id() values, "
        "addresses, user or host names; sort sets and dict items (sorted(...)) instead of "
        "relying on hash order."
    )


def _two_runs(
    snippet: Snippet, server: ForkServer | None, second: ForkServer | None
) -> tuple[tuple[int, str, list[str]], tuple[int, str, list[str]]]:
    """Two runs: the second under another hash seed, thread count and date (VARIANT)."""
    seed1 = server.hash_seed if uses_server(snippet, server) else random_hash_seed()
    one = fresh_run(snippet.path, server, hash_seed=seed1)
    if uses_server(snippet, second) and second.hash_seed != seed1:
        seed2 = second.hash_seed
        two = fresh_run(snippet.path, second)
    else:  # a fresh interpreter with another seed
        seed2 = random_hash_seed(avoid=seed1)
        two = fresh_run(snippet.path, None, env=VARIANT, hash_seed=seed2)
    return (seed1, *one), (seed2, *two)


def check(path: Path, server: ForkServer | None = None) -> None:
    """Raise SnippetError with a diff when the record differs from a fresh run."""
    snippet = parse(path)
    seed = server.hash_seed if uses_server(snippet, server) else random_hash_seed()
    new = fresh(path, server, env=VARIANT, hash_seed=seed)
    record_path = snippet.record_path
    hint = REFRESH_HINT.format(path=snippet.rel)
    if not record_path.exists():
        raise SnippetError(
            f"{snippet.rel} has no recorded output ({rel(record_path)}). Create it with: {hint}"
        )
    stamp, old = record_stamp.split(record_path.read_text(encoding="utf-8"))
    if old != new:
        again = random_hash_seed(avoid=seed)
        other = fresh(path, None, hash_seed=again)
        if other != new:
            raise SnippetError(unstable_message(snippet, (seed, new), (again, other)))
        diff = "".join(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"{rel(record_path)} (recorded)",
                tofile=f"{snippet.rel} (fresh run)",
            )
        )
        raise SnippetError(
            f"Recorded output of {snippet.rel} is stale:\n{diff}\n"
            f"If the fresh output is right, refresh the record with: {hint}"
        )
    reason = record_stamp.stale_reason(snippet.path, record_path)
    if reason:
        raise SnippetError(
            f"Recorded output of {snippet.rel} prints the same, but its stamp is old: {reason}. "
            f"Refresh the record with: {hint}"
        )


def record(path: Path, server: ForkServer | None = None, second: ForkServer | None = None) -> bool:
    """Write the record (after two agreeing runs); return True if it changed.

    ``second`` is a server with another hash seed for the second run; without it the
    second run uses a fresh interpreter.
    """
    snippet = parse(path)
    one, two = _two_runs(snippet, server, second)
    scan.refuse_leaks(snippet, one[1])  # first: the message below would print a secret again
    if one[1] != two[1]:
        raise SnippetError(unstable_message(snippet, one[:2], two[:2]))
    new = record_stamp.stamp_lines(snippet.path, one[2], one[1]) + one[1]
    old = snippet.record_path.read_text(encoding="utf-8") if snippet.record_path.exists() else None
    if old != new:
        files.write_text(snippet.record_path, new)  # whole or not at all (a full disk keeps the old)
        return True
    return False
