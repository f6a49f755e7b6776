"""Post C's segment loop without h.detach(): the graph of the snippet's own loss
(snippets/pitfalls/detaching-too-much/too_much.py, sections ``segments`` then ``fixed``)."""

import contextlib
import io

import matplotlib.pyplot as plt

from autograd_lens import autograd_graph, draw_graph
from figures._phone import for_phone, stagger_rows
from tools.figures.legible import legible
from tools.snippets.reuse import run_sections

INPUTS = [
    "snippets/pitfalls/detaching-too-much/too_much.py",
    "tools/figures/legible.py",
    "tools/snippets/reuse.py",
]
SNIPPET = INPUTS[0]

TITLE = "hidden.append(h)"  # code: the same in both languages


def draw(lang: str, narrow: bool = False):
    with contextlib.redirect_stdout(io.StringIO()):  # its prints are shown on its page
        snippet = run_sections(SNIPPET, "segments", "fixed")
    names = dict(snippet["model"].named_parameters())
    graph = autograd_graph({"loss": snippet["loss"]}, names)
    assert graph.labels("backward").count("AddmmBackward0") == 4  # three segments + aggregate
    for name in ("segment.weight", "segment.bias"):
        (key,) = [n.key for n in graph.nodes if n.kind == "tensor" and n.label == name]
        (accumulate,) = [a for a, b in graph.edges if b == key]  # one AccumulateGrad ...
        assert sum(1 for _, b in graph.edges if b == accumulate) == 3  # ... three paths in
    fig, ax = plt.subplots(figsize=(3.5, 12.5) if narrow else (9, 9))  # narrow: a phone
    draw_graph({"loss": snippet["loss"]}, names, lang=lang, ax=ax, title=TITLE)
    if not narrow:
        return legible(fig)
    stagger_rows(ax)  # a row of two to four boxes zigzags: 3.5 in wide
    return legible(for_phone(fig))
