"""The reference chapters' figure scripts draw from real computations and assert what
they show (one AccumulateGrad node with two incoming edges, two graphs for one function,
linear growth of what `total += loss` keeps). Run them without building the site, and
render every figure script as the build does."""

import importlib.util
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

from tools.core.repo import ROOT
from tools.figures import build as fig_tools

from ..support.failures import fail_on

SCRIPTS = [
    "figures/fundamentals/dynamic-graph/shared_leaf.py",
    "figures/fundamentals/dynamic-graph/if_on_data.py",
    "figures/fundamentals/saved-tensors/accumulate_loss.py",
]


def _load(rel: str):
    spec = importlib.util.spec_from_file_location(Path(rel).stem, ROOT / rel)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rel", SCRIPTS)
def test_figure_script_draws_and_its_checks_hold(rel):
    fig = _load(rel).draw("en")
    try:
        assert fig.axes, f"{rel} drew no axes"
    finally:
        plt.close(fig)


def test_accumulate_loss_counts():
    mod = _load("figures/fundamentals/saved-tensors/accumulate_loss.py")
    kept, _ = mod.run("tensor", backward=False)
    freed, _ = mod.run("item", backward=False)
    _, nodes = mod.run("tensor", backward=True)
    assert kept[-1] > kept[0] and freed == [freed[0]] * mod.STEPS
    assert nodes == sorted(nodes) and nodes[0] > 0


@pytest.mark.parametrize(
    "script", fig_tools.scripts(), ids=lambda p: p.relative_to(fig_tools.FIGURES).as_posix()
)
def test_every_figure_script_renders(script):
    """What the build does for each figure, so `make test-fast` catches a broken script.
    The content-hash cache (.cache/figures) makes this cheap when nothing changed."""
    rendered = fail_on(fig_tools.FigureError, fig_tools.build_one, script)
    assert all(p.is_file() and p.stat().st_size > 0 for p in rendered.values())
