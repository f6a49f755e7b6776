"""Which parameters can a loss reach, and which ones received a gradient?

A silent ``detach()`` in the wrong place shows up as parameters that never learn.
[`reached_parameters`][autograd_lens.reached_parameters] answers from the graph alone,
before any ``backward()``; [`parameters_with_grad`][autograd_lens.parameters_with_grad]
answers after it.
"""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch import nn


def _named(
    params: nn.Module | Iterable[tuple[str, torch.Tensor]], what: str
) -> list[tuple[str, torch.Tensor]]:
    if isinstance(params, nn.Module):
        return list(params.named_parameters())
    if isinstance(params, torch.Tensor) or not isinstance(params, Iterable):
        raise TypeError(
            f"{what} must be an nn.Module or an iterable of (name, tensor) pairs "
            f"such as module.named_parameters(), got {type(params).__name__}."
        )
    out = []
    for item in params:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], torch.Tensor)):
            hint = " (use named_parameters(), not parameters())" if isinstance(item, torch.Tensor) else ""
            raise TypeError(f"{what} must yield (name, tensor) pairs, got a {type(item).__name__}{hint}.")
        out.append((str(item[0]), item[1]))
    return out


def reached_parameters(
    loss: torch.Tensor, params: nn.Module | Iterable[tuple[str, torch.Tensor]]
) -> list[str]:
    """Names of the parameters that the graph of ``loss`` reaches.

    Walks ``loss.grad_fn`` and ``next_functions`` to the ``AccumulateGrad`` nodes;
    nothing is computed and no ``.grad`` changes. These are the parameters
    ``loss.backward()`` sends a gradient to, with two exceptions: a custom
    ``autograd.Function`` whose ``backward`` returns ``None`` for an input is
    reached but passes no gradient on, and the parameters used inside a
    reentrant ``torch.utils.checkpoint`` are not in the graph until backward
    recomputes them, so they are missing here yet get a gradient.

    Args:
        loss: The tensor you would call ``backward()`` on.
        params: A module, or ``(name, tensor)`` pairs such as ``model.named_parameters()``.

    Returns:
        The reached names, in the order ``params`` lists them. Empty if
            ``loss`` has no graph (for example because it was computed from
            detached tensors).

    Raises:
        TypeError: ``loss`` is not a tensor, or ``params`` is not a module / pairs.
    """
    if not isinstance(loss, torch.Tensor):
        raise TypeError(f"loss must be a torch.Tensor, got {type(loss).__name__}.")
    named = _named(params, "params")
    # Objects are held while their id() is in use: torch may give a fresh Python
    # wrapper for a node on each access and free it right after (2.5 does), so
    # an unheld wrapper's address can come back as another node's.
    found: dict[int, torch.Tensor] = {}
    if loss.grad_fn is None:
        if loss.requires_grad:  # loss is itself a leaf
            found[id(loss)] = loss
    else:
        seen: dict[int, object] = {}
        stack = [loss.grad_fn]
        while stack:
            fn = stack.pop()
            if id(fn) in seen:
                continue
            seen[id(fn)] = fn
            variable = getattr(fn, "variable", None)
            if isinstance(variable, torch.Tensor):
                found[id(variable)] = variable
            stack.extend(n for n, _ in fn.next_functions if n is not None)
    return [name for name, p in named if id(p) in found]


def parameters_with_grad(
    params: nn.Module | Iterable[tuple[str, torch.Tensor]], *, nonzero: bool = False
) -> list[str]:
    """Names of the parameters whose ``.grad`` is set (after a ``backward()``).

    Args:
        params: A module, or ``(name, tensor)`` pairs.
        nonzero: Count only gradients with at least one non-zero element
            (``zero_grad(set_to_none=False)`` leaves zeros, which are not ``None``).

    Returns:
        The names, in the order ``params`` lists them.

    Raises:
        TypeError: ``params`` is not a module / pairs, or ``nonzero`` is not a bool.
    """
    if not isinstance(nonzero, bool):
        raise TypeError(f"nonzero must be True or False, got {type(nonzero).__name__} {nonzero!r}.")
    out = []
    for name, p in _named(params, "params"):
        if p.grad is None:
            continue
        if nonzero and not bool(p.grad.ne(0).any()):
            continue
        out.append(name)
    return out
