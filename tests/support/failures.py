"""What tests share besides fixtures: where artifacts go, and failures that show
a tool's message once."""

from __future__ import annotations

import pytest

from tools.core.repo import ROOT

ARTIFACTS = ROOT / "test-artifacts"


def fail_on(errors, fn, *args, prefix: str = "", **kwargs):
    """Call ``fn``; turn ``errors`` into a test failure that shows the message once
    (pytest.fail inside ``except`` would print the original error, then the failure)."""
    try:
        return fn(*args, **kwargs)
    except errors as err:
        message = f"{prefix}{err}"
    pytest.fail(message, pytrace=False)
