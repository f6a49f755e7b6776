"""Unit tests of the helper package."""

from __future__ import annotations

import gc
import weakref

import matplotlib

matplotlib.use("Agg")
import pytest
import torch
from matplotlib.figure import Figure
from torch import nn

from autograd_lens import (
    SavedTensorLedger,
    autograd_graph,
    draw_graph,
    parameters_with_grad,
    reached_parameters,
)

# What these tests read (tests/support/verdicts.py: a test is reused while they are unchanged)
KEYED_ON = ("src",)


def test_graph_of_the_first_example():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y.mean()
    g = autograd_graph({"z": z}, {"x": x, "y": y})
    assert g.labels("backward") == ["MeanBackward0", "MulBackward0"]
    assert g.labels("accumulate") == ["AccumulateGrad"]
    assert g.labels("tensor") == ["z", "x"]
    mul = next(n for n in g.nodes if n.label == "MulBackward0")
    assert mul.detail == "y.grad_fn"
    assert len(g.edges) == 4  # z -> Mean -> Mul -> AccumulateGrad -> x
    assert g.node(g.edges[0][0]).label == "z"


def test_shared_leaf_appears_once():
    w = torch.ones(3, requires_grad=True)
    out = (w * w + w).sum()
    g = autograd_graph(out, {"w": w})
    assert g.labels("accumulate") == ["AccumulateGrad"]
    assert g.labels("tensor").count("w") == 1


def test_detached_root_is_a_lone_node_or_an_error_when_strict():
    x = torch.ones(2, requires_grad=True)
    d = (x * 2).detach()
    g = autograd_graph({"d": d})
    assert len(g.nodes) == 1 and not g.nodes[0].in_graph and g.edges == ()
    with pytest.raises(ValueError, match="not part of any autograd graph"):
        autograd_graph({"d": d}, strict=True)


def test_leaf_root_is_kept():
    x = torch.ones(2, requires_grad=True)
    g = autograd_graph({"x": x}, strict=True)
    assert g.labels() == ["x"] and g.nodes[0].in_graph


@pytest.mark.parametrize(
    "bad, match",
    [
        ([1, 2], "must be a torch.Tensor or a mapping"),
        ({}, "empty mapping"),
        ({"x": [1.0]}, r"roots\['x'\] is a list"),
        ({1: torch.ones(1)}, "names must be str"),
    ],
)
def test_bad_roots(bad, match):
    with pytest.raises((TypeError, ValueError), match=match):
        autograd_graph(bad)


def test_draw_graph_returns_a_figure_in_both_languages():
    x = torch.ones(2, requires_grad=True)
    for lang in ("en", "zh"):
        fig = draw_graph({"z": (x * 3).sum()}, {"x": x}, lang=lang)
        assert isinstance(fig, Figure)
    with pytest.raises(ValueError, match="lang must be one of"):
        draw_graph(x, lang="fr")


def test_ledger_counts_and_sees_graphs_die():
    x = torch.ones(1000, requires_grad=True)
    with SavedTensorLedger() as ledger:
        y = (x * x).sum()
    assert ledger.count == 2 and ledger.live_count == 2
    assert ledger.nbytes == 4000  # the same storage, counted once
    assert ledger.activation_nbytes == 0  # x is a leaf
    y.backward()
    gc.collect()
    assert ledger.live_count == 0 and ledger.live_nbytes == 0


def test_ledger_counts_activations_and_frees_on_deletion():
    x = torch.ones(256, requires_grad=True)
    with SavedTensorLedger() as ledger:
        h = torch.tanh(x * 2)  # tanh saves its output
        loss = h.sum()
    assert ledger.activation_nbytes == 256 * 4
    del h, loss
    gc.collect()
    assert ledger.live_count == 0


def test_ledger_cannot_be_entered_twice():
    ledger = SavedTensorLedger()
    with ledger, pytest.raises(RuntimeError, match="already active"):
        ledger.__enter__()


def test_reach_and_grads():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    x = torch.randn(5, 3)
    full = model(x).sum()
    assert reached_parameters(full, model) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    cut = model[2](model[0](x).relu().detach()).sum()
    assert reached_parameters(cut, model) == ["2.weight", "2.bias"]
    assert reached_parameters(cut.detach(), model) == []
    cut.backward()
    assert parameters_with_grad(model) == ["2.weight", "2.bias"]
    model.zero_grad(set_to_none=False)
    assert parameters_with_grad(model, nonzero=True) == []


@pytest.mark.parametrize("bad", [torch.ones(2), 3, [("w", 1.0)]])
def test_reach_rejects_bad_params(bad):
    with pytest.raises(TypeError, match="params must"):
        reached_parameters(torch.ones(1, requires_grad=True).sum(), bad)


def test_reach_rejects_non_tensor_loss():
    with pytest.raises(TypeError, match="loss must be a torch.Tensor"):
        reached_parameters(1.0, nn.Linear(1, 1))


def test_ledger_totals_do_not_depend_on_address_reuse():
    # Each step's activations are freed before the next step allocates, so the allocator
    # may hand out the same addresses again: they are still distinct storages.
    w = torch.ones(64, requires_grad=True)
    with SavedTensorLedger() as ledger:
        for _ in range(5):
            torch.tanh(w * 3).sum().backward()
    assert ledger.count == 5 and ledger.live_count == 0
    assert ledger.activation_nbytes == 5 * 64 * 4


def test_ledger_documented_caveat_no_inplace_check():
    """As documented: saved-tensor hooks skip the version check (saved_variable.cpp)."""
    a = torch.ones(3, requires_grad=True)
    with SavedTensorLedger():
        b = a.exp()
    b.detach().add_(1)  # without the ledger, backward would raise
    b.sum().backward()
    assert torch.allclose(a.grad, torch.full((3,), torch.e + 1))  # silently wrong: e, not e+1


# -- node identity: no walk may depend on Python wrapper lifetimes --------------
# torch may create the Python object for a backward node on each access to
# grad_fn / next_functions and free it as soon as nobody holds it (2.5 does);
# while one is alive, the same object comes back. These fakes do exactly that,
# so a walk that remembers nodes by id() without holding them sees a freed
# address reused by another node, on any torch.


class _FakeNode:
    """The stable node behind the wrappers (like a C++ autograd Node)."""

    def __init__(self, cls, inputs=(), variable=None):
        self.cls, self.inputs, self.variable = cls, inputs, variable
        self._wrapper = None

    def wrapper(self):
        alive = self._wrapper() if self._wrapper is not None else None
        if alive is None:
            alive = self.cls(self)
            self._wrapper = weakref.ref(alive)
        return alive


class _Wrapper:
    __slots__ = ("__weakref__", "_node")

    def __init__(self, node):
        self._node = node

    @property
    def next_functions(self):
        return tuple((n.wrapper() if n else None, 0) for n in self._node.inputs)


class AccumulateGrad(_Wrapper):
    __slots__ = ()

    @property
    def variable(self):
        return self._node.variable


class SumBackward0(_Wrapper):
    __slots__ = ()


class AddBackward0(_Wrapper):
    __slots__ = ()


class AddmmBackward0(_Wrapper):
    __slots__ = ()


class TBackward0(_Wrapper):
    __slots__ = ()


class MulBackward0(_Wrapper):
    __slots__ = ()


class _FakeGraphTensor(torch.Tensor):
    """A tensor whose grad_fn is a fresh-wrapper fake graph."""

    @property
    def grad_fn(self):
        return self._fake_root.wrapper()


def _fake_tensor(root: _FakeNode) -> torch.Tensor:
    t = torch.zeros(()).as_subclass(_FakeGraphTensor)
    t._fake_root = root
    return t


def test_reach_does_not_depend_on_wrapper_lifetimes():
    # The graph of nn.Linear(4, 1)(x).sum(): Sum -> Addmm -> (bias, None, T -> weight)
    w = nn.Parameter(torch.ones(1, 4))
    b = nn.Parameter(torch.ones(1))
    acc_b = _FakeNode(AccumulateGrad, variable=b)
    acc_w = _FakeNode(AccumulateGrad, variable=w)
    addmm = _FakeNode(AddmmBackward0, (acc_b, None, _FakeNode(TBackward0, (acc_w,))))
    loss = _fake_tensor(_FakeNode(SumBackward0, (addmm,)))
    assert reached_parameters(loss, [("weight", w), ("bias", b)]) == ["weight", "bias"]


def test_graph_does_not_depend_on_wrapper_lifetimes():
    # A diamond whose shared node is reached through two different parents, and
    # a named intermediate: each node must appear once, with its name.
    x = nn.Parameter(torch.ones(2))
    acc = _FakeNode(AccumulateGrad, variable=x)
    shared = _FakeNode(MulBackward0, (acc,))
    left = _FakeNode(MulBackward0, (shared,))
    right = _FakeNode(TBackward0, (shared,))
    root = _fake_tensor(_FakeNode(AddBackward0, (left, right)))
    hidden = _fake_tensor(shared)
    g = autograd_graph({"z": root}, {"x": x, "h": hidden})
    assert g.labels() == [
        "z",
        "AddBackward0",
        "MulBackward0",
        "MulBackward0",
        "AccumulateGrad",
        "x",
        "TBackward0",
    ]
    assert [n.detail for n in g.nodes if n.label == "MulBackward0"] == ["", "h.grad_fn"]
    assert len(g.edges) == 7


# -- bad input and large graphs -------------------------------------------------
def _chain(n: int, keep: list | None = None):
    x = torch.ones(1, requires_grad=True)
    y = x
    for i in range(n):
        y = y * 1.0
        if keep is not None and i % 1000 == 0:
            keep.append(y)
    return x, y


def test_walks_a_100000_node_chain_without_recursion():
    # torch 2.13 keeps a node's Python wrapper alive once one was made, and
    # then frees a chain recursively: freeing 100,000 wrapped nodes at once
    # overflows the C stack. Holding every 1000th tensor frees it in pieces.
    keep: list[torch.Tensor] = []
    x, y = _chain(100_000, keep)
    g = autograd_graph({"y": y}, {"x": x})
    assert len(g.nodes) == 100_000 + 3  # y, 100,000 MulBackward0, AccumulateGrad, x
    assert g.labels()[-2:] == ["AccumulateGrad", "x"]
    assert reached_parameters(y.sum(), [("x", x)]) == ["x"]
    del y
    while keep:
        keep.pop()


def test_draw_graph_refuses_a_huge_graph_with_a_clear_message():
    x, y = _chain(1_000)
    with pytest.raises(ValueError, match=r"1003 nodes \(max_nodes=200\).*max_nodes=None"):
        draw_graph(y, {"x": x})
    fig = draw_graph(*reversed(_chain(3)), max_nodes=10)
    assert isinstance(fig, Figure)


@pytest.mark.parametrize("bad", ["x", 1, object()])
def test_draw_graph_ax_must_be_axes(bad):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        draw_graph(x * 2, ax=bad)


@pytest.mark.parametrize("bad", [0, -1, 2.5, "10", True])
def test_draw_graph_max_nodes_must_be_a_positive_int(bad):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(TypeError, match="max_nodes must be"):
        draw_graph(x * 2, max_nodes=bad)


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_strict_must_be_a_bool(bad):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(TypeError, match="strict must be True or False"):
        autograd_graph(x * 2, strict=bad)


def test_nested_different_ledgers_both_count():
    x = torch.ones(100, requires_grad=True)
    with SavedTensorLedger() as outer:
        a = x.exp()  # exp saves its output: 1
        with SavedTensorLedger() as inner:
            b = (a * a).sum()  # mul saves both operands: 2
        c = a.sin()  # sin saves its input: 1
    assert (outer.count, inner.count) == (4, 2)
    assert (outer.live_count, inner.live_count) == (4, 2)
    (b + c.sum()).backward()
    gc.collect()
    assert (outer.live_count, inner.live_count) == (0, 0)
    with SavedTensorLedger() as alone:  # the stack is empty again
        x.exp()
    assert (alone.count, outer.count) == (1, 4)


def test_ledger_exit_without_enter_or_out_of_order_is_a_clear_error():
    with pytest.raises(RuntimeError, match="not active"):
        SavedTensorLedger().__exit__(None, None, None)
    outer, inner = SavedTensorLedger(), SavedTensorLedger()
    outer.__enter__()
    inner.__enter__()
    with pytest.raises(RuntimeError, match="out of order"):
        outer.__exit__(None, None, None)
    inner.__exit__(None, None, None)
    outer.__exit__(None, None, None)


def test_nonzero_must_be_a_bool():
    m = nn.Linear(2, 1)
    with pytest.raises(TypeError, match="nonzero must be True or False, got str 'no'"):
        parameters_with_grad(m, nonzero="no")


def test_parameters_instead_of_named_parameters_is_explained():
    m = nn.Linear(2, 1)
    loss = m(torch.ones(2)).sum()
    with pytest.raises(TypeError, match=r"got a Parameter \(use named_parameters\(\)"):
        reached_parameters(loss, m.parameters())


def test_a_nested_tensor_gets_the_helpers_own_error():
    x = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)], requires_grad=True)
    with pytest.raises(TypeError, match="nested tensor"):
        autograd_graph(x * 2, {"x": x})


def test_the_ledger_counts_only_its_own_thread():
    # documented in SavedTensorLedger's docstring: saved_tensors_hooks are thread-local
    import threading

    x = torch.ones(3, requires_grad=True)
    with SavedTensorLedger() as ledger:
        worker = threading.Thread(target=lambda: (x * x).sum())
        worker.start()
        worker.join()
    assert ledger.count == 0
    assert "thread-local" in SavedTensorLedger.__doc__
