"""The build cache (tools/core/cache.py): a hit gives what a fresh run gives."""

from __future__ import annotations

import markdown
import pytest

from tools.core import cache as build_cache
from tools.site import cache_hook as build_cache_hook

# What these tests read (tests/support/verdicts.py: a test is reused while they are unchanged)
KEYED_ON = ("tools",)


@pytest.fixture
def cache(isolated_build_cache):
    build_cache_hook._install()
    yield isolated_build_cache
    build_cache._connection = None


def test_keys_change_with_every_part():
    base = build_cache.key("a", "b", 1)
    assert build_cache.key("a", "b", 1) == base
    assert (
        len({base, build_cache.key("a", "b", 2), build_cache.key("ab", "", 1), build_cache.key("a", "b")})
        == 4
    )


def test_off_and_bypass(cache, monkeypatch):
    build_cache.put("highlight", "k", "v")
    assert build_cache.get("highlight", "k") == "v"
    monkeypatch.setenv("BUILD_CACHE_BYPASS", "downloads,highlight")
    assert build_cache.get("highlight", "k") is None
    monkeypatch.setenv("BUILD_CACHE", "off")
    monkeypatch.delenv("BUILD_CACHE_BYPASS")
    assert build_cache.get("highlight", "k") is None


CODE = '```python title="x.py"\nimport torch\ny = torch.ones(2).detach()  # (1)!\n```\n'


def _html(**config) -> str:
    return markdown.markdown(
        CODE + "Inline `#!python x.detach()`.\n",
        extensions=["pymdownx.superfences", "pymdownx.highlight", "pymdownx.inlinehilite"],
        extension_configs={"pymdownx.highlight": config},
    )


def _unwrapped(monkeypatch):
    """pymdownx.highlight as it is without the hook."""
    import pymdownx.highlight as module

    for name in ("highlight", "BlockHtmlFormatter", "InlineHtmlFormatter"):
        monkeypatch.setattr(module, name, getattr(module, name).__wrapped__)


@pytest.mark.parametrize("config", [{}, {"linenums": True, "linenums_style": "pymdownx-inline"}], ids=str)
def test_highlighting_from_the_cache_is_what_pygments_gives(cache, monkeypatch, config):
    with monkeypatch.context() as plain:
        _unwrapped(plain)
        fresh = _html(**config)
    stored, hit = _html(**config), _html(**config)
    assert fresh == stored == hit
    assert build_cache.get("highlight", "nonexistent") is None
