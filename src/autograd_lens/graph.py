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


def _check_tensors(arg: object, what: str) -> dict[str, torch.Tensor]:
    if isinstance(arg, torch.Tensor):
        return {"output": arg}
    if isinstance(arg, Mapping):
        if not arg:
            raise ValueError(f"{what} is an empty mapping: give at least one name -> tensor.")
        out = {}
        for name, value in arg.items():
            if not isinstance(name, str):
                raise TypeError(f"{what}: names must be str, got {type(name).__name__} {name!r}.")
            if not isinstance(value, torch.Tensor):
                raise TypeError(
                    f"{what}[{name!r}] is a {type(value).__name__}, not a torch.Tensor."
                )
            out[name] = value
        return out
    raise TypeError(
        f"{what} must be a torch.Tensor or a mapping of names to tensors, "
        f"got {type(arg).__name__}."
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

    nodes: dict[str, GraphNode] = {}
    edges: list[tuple[str, str]] = []
    # Keys come from id(), which is unique only while its object lives. torch may
    # hand out a fresh Python wrapper for a node on each access to grad_fn or
    # next_functions, and free it as soon as nobody holds it (2.5 does), so a
    # later wrapper can reuse a freed address. Holding every object we key for
    # the whole walk keeps the ids distinct; and while a wrapper lives, torch
    # returns that same wrapper for its node.
    keys: dict[int, str] = {}
    held: list[object] = []

    def key_of(obj: object, prefix: str) -> str:
        key = keys.get(id(obj))
        if key is None:
            held.append(obj)
            key = keys[id(obj)] = f"{prefix}{len(keys)}"
        return key

    fn_names: dict[str, list[str]] = {}
    leaf_names: dict[str, str] = {}
    for name, t in {**name_map, **root_map}.items():
        key_of(t, "t")
        if t.grad_fn is not None:
            fn_names.setdefault(key_of(t.grad_fn, "fn"), []).append(name)
        elif t.requires_grad:
            leaf_names[key_of(t, "t")] = name

    def add(node: GraphNode) -> str:
        nodes.setdefault(node.key, node)
        return node.key

    def expand(fn) -> list | None:
        """Add ``fn``'s node; return its inputs, or None for AccumulateGrad."""
        key = key_of(fn, "fn")
        cls = type(fn).__name__
        if cls == "AccumulateGrad":
            add(GraphNode(key, "accumulate", cls))
            leaf = fn.variable
            leaf_key = key_of(leaf, "t")
            leaf_name = leaf_names.get(leaf_key, "leaf")
            add(GraphNode(leaf_key, "tensor", leaf_name, _describe(leaf)))
            edges.append((key, leaf_key))
            return None
        detail = ", ".join(f"{n}.grad_fn" for n in fn_names.get(key, []))
        add(GraphNode(key, "backward", cls, detail))
        return [nxt for nxt, _ in fn.next_functions if nxt is not None]

    def visit(root_fn) -> None:
        """Depth-first, parent edge before the child's subtree; no recursion,
        so a chain of any length fits."""
        if key_of(root_fn, "fn") in nodes:
            return
        inputs = expand(root_fn)
        stack = [] if inputs is None else [(key_of(root_fn, "fn"), iter(inputs))]
        while stack:
            parent, pending = stack[-1]
            for nxt in pending:
                child = key_of(nxt, "fn")
                edges.append((parent, child))
                if child not in nodes:
                    inputs = expand(nxt)
                    if inputs is not None:
                        stack.append((child, iter(inputs)))
                    break
            else:
                stack.pop()

    for name, t in root_map.items():
        if t.grad_fn is None and not t.requires_grad:
            if strict:
                raise ValueError(
                    f"roots[{name!r}] has no grad_fn and does not require grad: "
                    "it is not part of any autograd graph."
                )
            add(GraphNode(key_of(t, "t"), "tensor", name, _describe(t), in_graph=False))
            continue
        tkey = add(GraphNode(key_of(t, "t"), "tensor", name, _describe(t)))
        fn = t.grad_fn
        if fn is not None:
            edges.append((tkey, key_of(fn, "fn")))
            visit(fn)
    return AutogradGraph(tuple(nodes.values()), tuple(dict.fromkeys(edges)))


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
            layer.sort(
                key=lambda k: sum(pos.get(p, 0.0) for p in parents[k]) / max(len(parents[k]), 1)
            )
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
    if lang not in _TEXT:
        raise ValueError(f"lang must be one of {sorted(_TEXT)}, got {lang!r}.")
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1
    ):
        raise TypeError(f"max_nodes must be a positive int or None, got {max_nodes!r}.")
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes as _Axes
    from matplotlib.patches import Patch

    if ax is not None and not isinstance(ax, _Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}.")
    graph = autograd_graph(roots, names)
    text = _TEXT[lang]
    layers = _layers(graph)
    width = max(len(layer) for layer in layers)
    if max_nodes is not None and len(graph.nodes) > max_nodes:
        raise ValueError(
            f"draw_graph: the graph has {len(graph.nodes)} nodes (max_nodes={max_nodes}); "
            f"drawn, it would be about {2.5 * width:,.0f} x {1.05 * len(layers):,.0f} inches "
            "and unreadable. Draw a smaller part (for example the last few operations), "
            "use autograd_graph() for the data, or pass max_nodes=None to draw it anyway."
        )
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(3.2, 2.5 * width), 0.6 + 1.05 * len(layers)))
    else:
        fig = ax.figure
    xy: dict[str, tuple[float, float]] = {}
    for row, layer in enumerate(layers):
        for i, key in enumerate(layer):
            xy[key] = ((i - (len(layer) - 1) / 2) * 2.4, -row * 1.6)
    boxes = {}
    for node in graph.nodes:
        style = _STYLE["outside" if not node.in_graph else node.kind]
        lines = [node.label]
        if node.detail:
            lines.append(node.detail)
        if not node.in_graph:
            lines.append(text["nograph"])
        boxes[node.key] = ax.text(
            *xy[node.key],
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
    for a, b in graph.edges:
        # Anchor on the text artists themselves: bottom-centre of the parent to
        # top-centre of the child, resolved at draw time, so later layout changes
        # (suptitle, tight bbox) cannot detach the arrows from the boxes.
        ax.annotate(
            "",
            xy=(0.5, 1.0),
            xycoords=boxes[b],
            xytext=(0.5, 0.0),
            textcoords=boxes[a],
            arrowprops={
                "arrowstyle": "-|>",
                "color": "#374151",
                "shrinkA": 5,
                "shrinkB": 5,
            },
            zorder=2,
        )
    xs = [p[0] for p in xy.values()]
    ys = [p[1] for p in xy.values()]
    ax.set_xlim(min(xs) - 1.4, max(xs) + 1.4)
    ax.set_ylim(min(ys) - 0.8, max(ys) + 0.8)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=11)
    if legend:
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
    return fig
