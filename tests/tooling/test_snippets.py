"""The snippet tooling fails loudly and helpfully: stale records, bad snippets, bad headers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.snippets import records
from tools.snippets.source import SnippetError, parse

# What these tests read (tests/support/verdicts.py: a test is reused while they are unchanged)
KEYED_ON = ("tools", "src", "pyproject.toml")


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
    assert "make outputs" in message and "tools snippets record" in message


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


def test_a_figure_runs_a_snippets_sections_with_its_line_numbers(tmp_path):
    from tools.snippets.reuse import run_sections

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


RAISES_OTHER = (
    "# raises: a ValueError\n"
    "# --8<-- [start:a]\n"
    "{}['missing']\n"
    "# --8<-- [end:a]\n"
    "# --8<-- [start:b]\n"
    "print('b ran')\n"
    "# --8<-- [end:b]\n"
)


def test_a_section_raising_another_error_than_declared_is_refused(tmp_path, fork_server):
    path = _snippet(tmp_path, RAISES_OTHER)
    with pytest.raises(SnippetError, match=r"declared '# raises: a ValueError' but raised KeyError"):
        records.fresh(path, fork_server)


def test_another_release_raising_another_error_is_a_difference(tmp_path, fork_server):
    # what the version matrix does (reader_checks=False): the section ended as declared,
    # with another error; its message is its output and the sections after it still run
    from tools.snippets.runner import run

    outcome = run(parse(_snippet(tmp_path, RAISES_OTHER)), fork_server, reader_checks=False)
    assert outcome.outputs[-2:] == ["KeyError: 'missing'\n", "b ran\n"]
