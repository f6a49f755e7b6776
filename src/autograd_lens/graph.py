"""Walk and draw the autograd graph reachable from tensors.

The graph is the one autograd itself stores: every non-leaf tensor points to the
backward node that produced it (``tensor.grad_fn``), and every backward node points to
the nodes of its inputs (``node.next_functions``). Leaf tensors that require grad
appear through their ``AccumulateGrad`` node, whose ``variable`` is the leaf.
Arrows are drawn the way those pointers go: from an output towards the leaves, which
is the direction gradients travel in backward.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import torch

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

NodeKind = Literal["tensor", "backward", "accumulate"]

_TEXT = {
    "en": {
        "tensor": "tensor",
        "backward": "backward node (grad_fn)",
        "accumulate": "AccumulateGrad (writes .grad of a leaf)",
        "nograph": "no grad_fn, requires_grad=False:\nnot part of any graph",
        "leaf": "leaf, requires_grad=True",
        "arrow": "arrows follow grad_fn / next_functions (the direction of backward)",
    },
    "zh": {
        "tensor": "张量",
        "backward": "反向节点（grad_fn）",
        "accumulate": "AccumulateGrad（写入叶子节点的 .grad）",
        "nograph": "无 grad_fn，requires_grad=False：\n不属于任何计算图",
        "leaf": "叶子节点，requires_grad=True",
        "arrow": "箭头沿 grad_fn / next_functions 指向（即反向传播的方向）",
    },
}


@dataclass(frozen=True)
class GraphNode:
    """One node of an [`AutogradGraph`][autograd_lens.AutogradGraph].

    Attributes:
        key: Identifier unique within the graph.
        kind: ``"tensor"`` for a named tensor, ``"backward"`` for a backward node such
            as ``MulBackward0``, ``"accumulate"`` for an ``AccumulateGrad`` node.
        label: The tensor's name, or the node's class name.
        detail: Extra text: shape and dtype for tensors, the names of the tensors whose
            ``grad_fn`` this node is, for backward nodes.
        in_graph: ``False`` for a tensor that has no ``grad_fn`` and does not require
            grad (for example the result of ``detach()``).
    """

    key: str
    kind: NodeKind
    label: str
    detail: str = ""
    in_graph: bool = True


@dataclass(frozen=True)
class AutogradGraph:
    """The graph reachable from some tensors, as plain data.

    Attributes:
        nodes: Nodes in discovery order (roots first).
        edges: ``(from_key, to_key)`` pairs, pointing from an output towards the leaves.
    """

    nodes: tuple[GraphNode, ...]
    edges: tuple[tuple[str, str], ...]

    def node(self, key: str) -> GraphNode:
        """Return the node with this key (``KeyError`` if there is none)."""
        for n in self.nodes:
            if n.key == key:
                return n
        raise KeyError(key)

    def labels(self, kind: NodeKind | None = None) -> list[str]:
        """Labels of all nodes, or of one kind, in discovery order."""
        return [n.label for n in self.nodes if kind is None or n.kind == kind]


def _no_nested(t: torch.Tensor, what: str) -> torch.Tensor:
    if t.is_nested:
        raise TypeError(
            f"{what} is a nested tensor, which has no single shape to label; "
            "pass its components (t.unbind()) or a regular tensor."
        )
    return t


def _check_tensors(arg: object, what: str) -> dict[str, torch.Tensor]:
    if isinstance(arg, torch.Tensor):
        return {"output": _no_nested(arg, what)}
    if isinstance(arg, Mapping):
        if not arg:
            raise ValueError(f"{what} is an empty mapping: give at least one name -> tensor.")
        out = {}
        for name, value in arg.items():
            if not isinstance(name, str):
                raise TypeError(f"{what}: names must be str, got {type(name).__name__} {name!r}.")
            if not isinstance(value, torch.Tensor):
                raise TypeError(f"{what}[{name!r}] is a {type(value).__name__}, not a torch.Tensor.")
            out[name] = _no_nested(value, f"{what}[{name!r}]")
        return out
    raise TypeError(
        f"{what} must be a torch.Tensor or a mapping of names to tensors, got {type(arg).__name__}."
    )


def _describe(t: torch.Tensor) -> str:
    shape = "(" + ", ".join(str(s) for s in t.shape) + ("," if t.dim() == 1 else "") + ")"
    return f"{shape} {str(t.dtype).removeprefix('torch.')}"


def autograd_graph(
    roots: torch.Tensor | Mapping[str, torch.Tensor],
    names: Mapping[str, torch.Tensor] | None = None,
    *,
    strict: bool = False,
) -> AutogradGraph:
    """Collect the autograd graph reachable from ``roots``.

    Args:
        roots: The output tensor, or a mapping ``{name: tensor}`` of outputs.
        names: Other tensors to label, usually the leaves (``{"x": x}``) and
            interesting intermediates. A leaf is recognised through its
            ``AccumulateGrad`` node; an intermediate through its ``grad_fn``.
        strict: If ``True``, raise ``ValueError`` when a root has no graph at all.
            If ``False`` (the default), such a root is kept as a lone node marked
            ``in_graph=False``, so "before / after detach" can be drawn side by side.

    The walk is iterative, so a graph of any depth fits (the tests walk a chain
    of 100,000 operations). Keys come from the walk itself, so the result does
    not depend on when torch creates or frees the Python objects of its nodes.

    !!! note "Very deep chains and torch"
        On torch 2.13 and 2.14, once Python has touched the nodes of a chain
        tens of thousands of operations deep, freeing the whole chain at once
        can overflow the C stack and crash the interpreter (torch then frees
        the nodes recursively). Free such a chain in parts, for example by
        holding every 1,000th tensor and dropping them last to first.

    Returns:
        The nodes and edges, roots first.

    Raises:
        TypeError: ``roots`` or ``names`` is not a tensor / mapping of
            tensors, or ``strict`` is not a bool.
        ValueError: An empty mapping, or ``strict=True`` and a root without a graph.

    Examples:
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> g = autograd_graph({"z": (x * 2).mean()}, {"x": x})
        >>> g.labels("backward")
        ['MeanBackward0', 'MulBackward0']
    """
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {type(strict).__name__} {strict!r}.")
    root_map = _check_tensors(roots, "roots")
    name_map = _check_tensors(names, "names") if names is not None else {}
    walk = _Walk({**name_map, **root_map})
    for name, t in root_map.items():
        walk.add_root(name, t, strict)
    return AutogradGraph(tuple(walk.nodes.values()), tuple(dict.fromkeys(walk.edges)))


class _Walk:
    """One walk of the graph: the keys handed out, the nodes and edges found so far."""

    def __init__(self, named: dict[str, torch.Tensor]) -> None:
        self.nodes: dict[str, GraphNode] = {}
        self.edges: list[tuple[str, str]] = []
        # Keys come from id(), which is unique only while its object lives. torch may
        # hand out a fresh Python wrapper for a node on each access to grad_fn or
        # next_functions, and free it as soon as nobody holds it (2.5 does), so a
        # later wrapper can reuse a freed address. Holding every object we key for
        # the whole walk keeps the ids distinct; and while a wrapper lives, torch
        # returns that same wrapper for its node.
        self._keys: dict[int, str] = {}
        self._held: list[object] = []
        self._fn_names: dict[str, list[str]] = {}
        self._leaf_names: dict[str, str] = {}
        for name, t in named.items():
            self.key_of(t, "t")
            if t.grad_fn is not None:
                self._fn_names.setdefault(self.key_of(t.grad_fn, "fn"), []).append(name)
            elif t.requires_grad:
                self._leaf_names[self.key_of(t, "t")] = name

    def key_of(self, obj: object, prefix: str) -> str:
        key = self._keys.get(id(obj))
        if key is None:
            self._held.append(obj)
            key = self._keys[id(obj)] = f"{prefix}{len(self._keys)}"
        return key

    def add(self, node: GraphNode) -> str:
        self.nodes.setdefault(node.key, node)
        return node.key

    def add_root(self, name: str, t: torch.Tensor, strict: bool) -> None:
        """The root tensor's node, then everything reachable from its ``grad_fn``."""
        if t.grad_fn is None and not t.requires_grad:
            if strict:
                raise ValueError(
                    f"roots[{name!r}] has no grad_fn and does not require grad: "
                    "it is not part of any autograd graph."
                )
            self.add(GraphNode(self.key_of(t, "t"), "tensor", name, _describe(t), in_graph=False))
            return
        tkey = self.add(GraphNode(self.key_of(t, "t"), "tensor", name, _describe(t)))
        fn = t.grad_fn
        if fn is not None:
            self.edges.append((tkey, self.key_of(fn, "fn")))
            self.visit(fn)

    def expand(self, fn) -> list | None:
        """Add ``fn``'s node; return its inputs, or None for AccumulateGrad."""
        key = self.key_of(fn, "fn")
        cls = type(fn).__name__
        if cls == "AccumulateGrad":
            self.add(GraphNode(key, "accumulate", cls))
            leaf = fn.variable
            leaf_key = self.key_of(leaf, "t")
            leaf_name = self._leaf_names.get(leaf_key, "leaf")
            self.add(GraphNode(leaf_key, "tensor", leaf_name, _describe(leaf)))
            self.edges.append((key, leaf_key))
            return None
        detail = ", ".join(f"{n}.grad_fn" for n in self._fn_names.get(key, []))
        self.add(GraphNode(key, "backward", cls, detail))
        return [nxt for nxt, _ in fn.next_functions if nxt is not None]

    def visit(self, root_fn) -> None:
        """Depth-first, parent edge before the child's subtree; no recursion,
        so a chain of any length fits."""
        if self.key_of(root_fn, "fn") in self.nodes:
            return
        inputs = self.expand(root_fn)
        stack = [] if inputs is None else [(self.key_of(root_fn, "fn"), iter(inputs))]
        while stack:
            parent, pending = stack[-1]
            for nxt in pending:
                child = self.key_of(nxt, "fn")
                self.edges.append((parent, child))
                if child not in self.nodes:
                    inputs = self.expand(nxt)
                    if inputs is not None:
                        stack.append((child, iter(inputs)))
                    break
            else:
                stack.pop()


def _layers(graph: AutogradGraph) -> list[list[str]]:
    """Longest-path layering from the roots, children ordered by their parents."""
    children: dict[str, list[str]] = {n.key: [] for n in graph.nodes}
    parents: dict[str, list[str]] = {n.key: [] for n in graph.nodes}
    for a, b in graph.edges:
        children[a].append(b)
        parents[b].append(a)
    # Longest path from the roots, in topological order (Kahn): linear time, so
    # a long chain costs no more than its length.
    depth = {k: 0 for k in children}
    indegree = {k: len(v) for k, v in parents.items()}
    ready = [k for k, d in indegree.items() if d == 0]
    while ready:
        a = ready.pop()
        for b in children[a]:
            depth[b] = max(depth[b], depth[a] + 1)
            indegree[b] -= 1
            if indegree[b] == 0:
                ready.append(b)
    order = [n.key for n in graph.nodes]
    layers: list[list[str]] = [[] for _ in range(max(depth.values(), default=0) + 1)]
    for k in order:
        layers[depth[k]].append(k)
    pos: dict[str, float] = {}
    for layer in layers:
        if pos:
            layer.sort(key=lambda k: sum(pos.get(p, 0.0) for p in parents[k]) / max(len(parents[k]), 1))
        for i, k in enumerate(layer):
            pos[k] = i - (len(layer) - 1) / 2
    return layers


_STYLE = {
    "tensor": {"fc": "#dbeafe", "ec": "#1d4ed8"},
    "backward": {"fc": "#ffedd5", "ec": "#c2410c"},
    "accumulate": {"fc": "#dcfce7", "ec": "#15803d"},
    "outside": {"fc": "#f3f4f6", "ec": "#6b7280"},
}


def draw_graph(
    roots: torch.Tensor | Mapping[str, torch.Tensor],
    names: Mapping[str, torch.Tensor] | None = None,
    *,
    lang: str = "en",
    title: str | None = None,
    ax: Axes | None = None,
    legend: bool = True,
    max_nodes: int | None = 200,
) -> Figure:
    """Draw the autograd graph reachable from ``roots`` with matplotlib.

    Tensors are blue boxes (name, shape, dtype), backward nodes orange, ``AccumulateGrad``
    green; a root without any graph is drawn grey with a note saying so.

    Args:
        roots: As for [`autograd_graph`][autograd_lens.autograd_graph].
        names: As for [`autograd_graph`][autograd_lens.autograd_graph].
        lang: ``"en"`` or ``"zh"``: the language of the legend and notes.
        title: Optional title above the graph.
        ax: Draw into this Axes instead of a new figure.
        legend: Whether to draw the legend below the graph.
        max_nodes: Refuse (``ValueError``) to draw a graph with more nodes than
            this: its boxes would be unreadable and the figure huge. ``None``
            draws any size. [`autograd_graph`][autograd_lens.autograd_graph]
            gives the same graph as data, at any size.

    Returns:
        The figure that holds the drawing.

    Raises:
        ValueError: ``lang`` is not ``"en"`` or ``"zh"``, or the graph has more
            than ``max_nodes`` nodes.
        TypeError: ``ax`` is not a matplotlib ``Axes``; ``roots`` or ``names``
            as for [`autograd_graph`][autograd_lens.autograd_graph].
    """
    _check_draw_args(lang, max_nodes, ax)
    graph = autograd_graph(roots, names)
    layers = _layers(graph)
    _check_size(graph, layers, max_nodes)
    if ax is None:
        import matplotlib.pyplot as plt

        width = max(len(layer) for layer in layers)
        fig, ax = plt.subplots(figsize=(max(3.2, 2.5 * width), 0.6 + 1.05 * len(layers)))
    else:
        fig = ax.figure
    text = _TEXT[lang]
    xy = _positions(layers)
    boxes = {node.key: _draw_box(ax, node, xy[node.key], text) for node in graph.nodes}
    for a, b in graph.edges:
        _draw_arrow(ax, boxes[a], boxes[b])
    _frame(ax, xy, title)
    if legend:
        _draw_legend(ax, graph, text)
    return fig


def _check_draw_args(lang: str, max_nodes: int | None, ax: object) -> None:
    if lang not in _TEXT:
        raise ValueError(f"lang must be one of {sorted(_TEXT)}, got {lang!r}.")
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1
    ):
        raise TypeError(f"max_nodes must be a positive int or None, got {max_nodes!r}.")
    from matplotlib.axes import Axes as _Axes

    if ax is not None and not isinstance(ax, _Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}.")


def _check_size(graph: AutogradGraph, layers: list[list[str]], max_nodes: int | None) -> None:
    if max_nodes is not None and len(graph.nodes) > max_nodes:
        width = max(len(layer) for layer in layers)
        raise ValueError(
            f"draw_graph: the graph has {len(graph.nodes)} nodes (max_nodes={max_nodes}); "
            f"drawn, it would be about {2.5 * width:,.0f} x {1.05 * len(layers):,.0f} inches "
            "and unreadable. Draw a smaller part (for example the last few operations), "
            "use autograd_graph() for the data, or pass max_nodes=None to draw it anyway."
        )


def _positions(layers: list[list[str]]) -> dict[str, tuple[float, float]]:
    """Box centres in data coordinates: one row per layer, each row centred."""
    xy: dict[str, tuple[float, float]] = {}
    for row, layer in enumerate(layers):
        for i, key in enumerate(layer):
            xy[key] = ((i - (len(layer) - 1) / 2) * 2.4, -row * 1.6)
    return xy


def _draw_box(ax: Axes, node: GraphNode, xy: tuple[float, float], text: dict[str, str]):
    style = _STYLE["outside" if not node.in_graph else node.kind]
    lines = [node.label]
    if node.detail:
        lines.append(node.detail)
    if not node.in_graph:
        lines.append(text["nograph"])
    return ax.text(
        *xy,
        "\n".join(lines),
        ha="center",
        va="center",
        fontsize=9,
        family="monospace" if node.kind != "tensor" else None,
        bbox={
            "boxstyle": "round,pad=0.4",
            "fc": style["fc"],
            "ec": style["ec"],
            "ls": "--" if not node.in_graph else "-",
        },
        zorder=3,
    )


def _draw_arrow(ax: Axes, parent, child) -> None:
    # Anchor on the text artists themselves: bottom-centre of the parent to
    # top-centre of the child, resolved at draw time, so later layout changes
    # (suptitle, tight bbox) cannot detach the arrows from the boxes.
    ax.annotate(
        "",
        xy=(0.5, 1.0),
        xycoords=child,
        xytext=(0.5, 0.0),
        textcoords=parent,
        arrowprops={
            "arrowstyle": "-|>",
            "color": "#374151",
            "shrinkA": 5,
            "shrinkB": 5,
        },
        zorder=2,
    )


def _frame(ax: Axes, xy: dict[str, tuple[float, float]], title: str | None) -> None:
    """Limits around the boxes, no axes, the title."""
    xs = [p[0] for p in xy.values()]
    ys = [p[1] for p in xy.values()]
    ax.set_xlim(min(xs) - 1.4, max(xs) + 1.4)
    ax.set_ylim(min(ys) - 0.8, max(ys) + 0.8)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=11)


def _draw_legend(ax: Axes, graph: AutogradGraph, text: dict[str, str]) -> None:
    """One entry per node kind drawn; none for a graph of lone tensors."""
    from matplotlib.patches import Patch

    kinds = [k for k in ("tensor", "backward", "accumulate") if any(n.kind == k for n in graph.nodes)]
    handles = [Patch(fc=_STYLE[k]["fc"], ec=_STYLE[k]["ec"], label=text[k]) for k in kinds]
    if any(n.kind != "tensor" for n in graph.nodes):
        ax.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, 0.0),
            ncol=1,
            fontsize=8,
            frameon=False,
            title=text["arrow"],
            title_fontsize=8,
        )
