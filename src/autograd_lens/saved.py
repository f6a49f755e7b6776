"""Account for the tensors autograd saves for backward.

Built on [`torch.autograd.graph.saved_tensors_hooks`][torch.autograd.graph.saved_tensors_hooks]:
the pack hook wraps each saved tensor in a small record; the record only *refers* to the
tensor the graph already keeps, so the ledger changes no lifetime. When the graph is freed
(after ``backward()``, or when the last tensor referring to it goes away), its records are
freed with it, which is how [`live_count`][autograd_lens.SavedTensorLedger.live_count]
sees graphs die.

See the warning on [`SavedTensorLedger`][autograd_lens.SavedTensorLedger]: inside it,
autograd's in-place check is off.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import torch
from torch.autograd.graph import saved_tensors_hooks


class _Saved:
    __slots__ = ("__weakref__", "tensor")

    def __init__(self, tensor: torch.Tensor) -> None:
        self.tensor = tensor


# Ledgers entered on this thread, outermost first. torch applies only the
# innermost saved_tensors_hooks, so the innermost ledger's pack hook records each
# save in every active ledger: nested ledgers all count what runs inside them.
_active = threading.local()


def _stack() -> list[SavedTensorLedger]:
    if not hasattr(_active, "ledgers"):
        _active.ledgers = []
    return _active.ledgers


@dataclass
class _Entry:
    nbytes: int
    storage_key: int  # same key for saves of one storage while any of them is alive
    is_parameter_or_leaf: bool


class SavedTensorLedger:
    """Context manager that records every tensor saved for backward inside it.

    Ledgers can be nested: each counts everything saved inside it (the
    innermost one records for all). Other ``saved_tensors_hooks`` entered
    inside a ledger replace it there, as torch applies only the innermost hooks.

    Counts are cumulative over the ``with`` block(s); ``live_*`` tell how many of the
    saved tensors are still held by some graph now. Each record holds a detached alias
    of the saved tensor (same storage, no ``grad_fn``), so the ledger creates no
    reference cycle and frees nothing later than autograd would.

    !!! warning "Only this thread"
        ``saved_tensors_hooks`` are thread-local: the ledger records what the thread that
        entered it saves. Work done inside the ``with`` block by another thread (a
        ``threading.Thread``, a DataLoader worker, DDP's reducer) is not counted; enter a
        ledger in that thread to measure it.

    !!! warning "The ledger switches off autograd's in-place check"
        PyTorch does not compare version counters for tensors that went through
        saved-tensor hooks (``torch/csrc/autograd/saved_variable.cpp``: the check runs only
        without hooks). Inside a ledger, modifying a saved tensor in place therefore gives a
        silently wrong gradient instead of the usual ``RuntimeError``. Do not measure with
        the ledger where that check matters.

    Examples:
        >>> x = torch.ones(1000, requires_grad=True)
        >>> with SavedTensorLedger() as ledger:
        ...     y = (x * x).sum()      # mul saves both operands (the same tensor x)
        >>> ledger.count, ledger.live_count
        (2, 2)
        >>> y.backward()               # backward frees the graph and what it saved
        >>> ledger.live_count
        0
    """

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}
        self._live: set[int] = set()
        self._count = 0
        # (data_ptr, nbytes) of storages held by live records -> (storage key, live saves).
        # Addresses are only compared while a record keeps the storage alive, so a
        # freed-and-reused address never merges two storages: counts do not depend on
        # the allocator.
        self._storages: dict[tuple[int, int], tuple[int, int]] = {}
        self._hooks: saved_tensors_hooks | None = None

    # -- context manager -------------------------------------------------------
    def __enter__(self) -> SavedTensorLedger:
        if self._hooks is not None:
            raise RuntimeError("SavedTensorLedger is already active; it cannot be nested in itself.")
        self._hooks = saved_tensors_hooks(self._pack, self._unpack)
        self._hooks.__enter__()
        _stack().append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._hooks is None:
            raise RuntimeError(
                "SavedTensorLedger.__exit__ called on a ledger that is not active: "
                "use it as `with SavedTensorLedger() as ledger:`."
            )
        stack = _stack()
        if not stack or stack[-1] is not self:
            raise RuntimeError(
                "SavedTensorLedger exited out of order: leave nested ledgers innermost "
                "first (a `with` block does this for you)."
            )
        stack.pop()
        self._hooks.__exit__(*exc)
        self._hooks = None

    # -- hooks -----------------------------------------------------------------
    def _pack(self, tensor: torch.Tensor) -> _Saved:
        record = _Saved(tensor.detach())  # an alias without grad_fn: no reference cycle
        for ledger in _stack() or [self]:
            ledger._add(record, tensor)
        return record

    def _add(self, record: _Saved, tensor: torch.Tensor) -> None:
        self._count += 1
        key = self._count
        storage = tensor.untyped_storage()
        address = (storage.data_ptr(), storage.nbytes())
        storage_key, saves = self._storages.get(address, (key, 0))
        self._storages[address] = (storage_key, saves + 1)
        self._entries[key] = _Entry(
            nbytes=tensor.numel() * tensor.element_size(),
            storage_key=storage_key,
            is_parameter_or_leaf=tensor.is_leaf and tensor.requires_grad,
        )
        self._live.add(key)
        weakref.finalize(record, self._release, key, address)

    def _release(self, key: int, address: tuple[int, int]) -> None:
        self._live.discard(key)
        storage_key, saves = self._storages[address]
        if saves <= 1:
            del self._storages[address]
        else:
            self._storages[address] = (storage_key, saves - 1)

    @staticmethod
    def _unpack(record: _Saved) -> torch.Tensor:
        return record.tensor

    # -- results ---------------------------------------------------------------
    @property
    def count(self) -> int:
        """How many times autograd saved a tensor (the same tensor saved twice counts twice)."""
        return self._count

    @property
    def nbytes(self) -> int:
        """Bytes of the saved tensors, each distinct storage counted once.

        A storage counts once for as long as some graph holds it; if every save of it is
        freed and it is saved again later (say, a parameter in the next training step),
        it counts again. That makes the total independent of the memory allocator.
        """
        return self._unique_bytes(self._entries)

    @property
    def activation_nbytes(self) -> int:
        """Like [`nbytes`][autograd_lens.SavedTensorLedger.nbytes], leaving out leaves that
        require grad (parameters and inputs), which exist whether or not a graph is built."""
        return self._unique_bytes({k: e for k, e in self._entries.items() if not e.is_parameter_or_leaf})

    @property
    def live_count(self) -> int:
        """How many saved tensors are still held by a graph."""
        return len(self._live)

    @property
    def live_nbytes(self) -> int:
        """Bytes of the saved tensors still held by a graph, each storage counted once."""
        return self._unique_bytes({k: self._entries[k] for k in self._live})

    @staticmethod
    def _unique_bytes(entries: dict[int, _Entry]) -> int:
        seen: dict[int, int] = {}
        for e in entries.values():
            seen[e.storage_key] = max(seen.get(e.storage_key, 0), e.nbytes)
        return sum(seen.values())
