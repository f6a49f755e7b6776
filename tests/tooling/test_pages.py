"""Page includes that point nowhere fail naming the file."""

from __future__ import annotations

import pytest

from tools.pages.expand import expand


def test_missing_include_fails_naming_the_file():
    from pymdownx.snippets import SnippetMissingError

    with pytest.raises(SnippetMissingError, match="no/such/file.py"):
        expand('--8<-- "no/such/file.py"')


def test_missing_section_fails():
    from pymdownx.snippets import SnippetMissingError

    with pytest.raises(SnippetMissingError, match="no-such-section"):
        expand('--8<-- "internals/what-detach-does/detach_basics.py:no-such-section"')
