"""autograd_lens: look inside PyTorch's autograd graph.

Small, tested helpers used by the snippets and figures of *PyTorch detach() in Depth*:

- [`autograd_graph`][autograd_lens.autograd_graph] / [`draw_graph`][autograd_lens.draw_graph]:
  walk ``grad_fn`` / ``next_functions`` from a tensor and draw the graph.
- [`SavedTensorLedger`][autograd_lens.SavedTensorLedger]: count what autograd saves
  for backward, and how much of it is still alive.
- [`reached_parameters`][autograd_lens.reached_parameters] /
  [`parameters_with_grad`][autograd_lens.parameters_with_grad]: which parameters a loss
  can reach, and which ones received a gradient.
"""

from autograd_lens.graph import AutogradGraph, GraphNode, autograd_graph, draw_graph
from autograd_lens.reach import parameters_with_grad, reached_parameters
from autograd_lens.saved import SavedTensorLedger

__all__ = [
    "AutogradGraph",
    "GraphNode",
    "SavedTensorLedger",
    "autograd_graph",
    "draw_graph",
    "parameters_with_grad",
    "reached_parameters",
]
