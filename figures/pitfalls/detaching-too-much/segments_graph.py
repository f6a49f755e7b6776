"""Post C's segment loop with h.detach(): the graph of the snippet's own loss
(snippets/pitfalls/detaching-too-much/too_much.py, section ``segments``)."""

import contextlib
import io

import matplotlib.pyplot as plt

from autograd_lens import autograd_graph, draw_graph
from figures._phone import for_phone
from tools.figures.legible import legible
from tools.snippets.reuse import run_sections

INPUTS = [
    "snippets/pitfalls/detaching-too-much/too_much.py",
    "tools/figures/legible.py",
    "tools/snippets/reuse.py",
]
SNIPPET = INPUTS[0]

TITLE = "hidden.append(h.detach())"  # code: the same in both languages


def draw(lang: str, narrow: bool = False):
    with contextlib.redirect_stdout(io.StringIO()):  # its prints are shown on its page
        snippet = run_sections(SNIPPET, "segments")
    names = dict(snippet["model"].named_parameters())
    graph = autograd_graph({"loss": snippet["loss"]}, names)
    reached = {n.label for n in graph.nodes if n.kind == "tensor" and n.label in names}
    assert reached == {"aggregate.weight", "aggregate.bias"}  # no segment.* at all
    fig, ax = plt.subplots(figsize=(3.4, 5.6) if narrow else (4.4, 5.6))  # narrow: a phone
    draw_graph({"loss": snippet["loss"]}, names, lang=lang, ax=ax, title=TITLE)
    return legible(for_phone(fig) if narrow else fig)
