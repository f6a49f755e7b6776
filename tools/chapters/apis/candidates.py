"""The candidate APIs, found by introspecting the pinned torch namespace by namespace.

The rule, in one place (``SOURCES``): for each namespace of the inventory, the names
its sources yield, each with its parameters.

- ``All(module)``: every name in the module's ``__all__`` (submodules and typing
  aliases left out).
- ``Members(cls)``: every public attribute of the class (``own``: only those the
  class defines itself, not what it inherits from ``nn.Module``); ``vocabulary``
  keeps only the names that speak of autograd (``AUTOGRAD_NAME``) or whose docstring
  does (``AUTOGRAD_DOC``); ``torch.Tensor`` has 600 public names, most of them
  differentiable operators, which decide nothing about where gradients go.
- ``Names(...)``: names the rules above cannot find (underscore names readers use,
  instance attributes, config knobs, re-exports under the name readers type).

A name is listed once, under the first source that yields it (``torch.no_grad``,
not ``torch.autograd.grad_mode.no_grad``). Parameters come from
``inspect.signature`` or, for a C method, from the first line of its docstring
(``numpy(*, force=False) -> numpy.ndarray``); ``*args``/``**kwargs`` pass through
and are not parameters; ``EXTRA_PARAMS`` adds those documented inside ``**kwargs``.
``data/apis.yml`` covers every candidate with an entry or an ``out_of_scope`` reason
(``tools.chapters.apis.load``).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
import types
import typing
from dataclasses import dataclass
from functools import cache

AUTOGRAD_NAME = re.compile(
    r"grad|detach|leaf|hook|backward|version|requires|retain|inference|numpy|clone"
    r"|^item$|^tolist$|^data$"
)
AUTOGRAD_DOC = re.compile(r"autograd|gradient|requires_grad|computation graph|detach|grad_fn", re.I)

# Parameters a function takes through **kwargs, as its docstring documents them.
EXTRA_PARAMS = {
    # torch/utils/checkpoint.py: checkpoint pops it from kwargs (default True)
    "torch.utils.checkpoint.checkpoint": ("preserve_rng_state",),
    # torch/csrc/autograd/python_legacy_variable.cpp: THPVariable_pynew's arguments
    "torch.autograd.Variable": ("data", "requires_grad", "volatile"),
}


@dataclass(frozen=True)
class Candidate:
    name: str  # as readers write it: torch.Tensor.detach
    namespace: str
    params: tuple[str, ...]

    @property
    def short(self) -> str:
        return self.name.removeprefix("torch.")


@dataclass(frozen=True)
class All:
    module: str


@dataclass(frozen=True)
class Members:
    cls: str
    own: bool = False
    vocabulary: bool = False


@dataclass(frozen=True)
class Names:
    names: tuple[str, ...]


NAMESPACES = ("tensor", "autograd", "module", "optim", "func", "checkpoint", "distributed", "compile")

SOURCES: dict[str, tuple] = {
    "tensor": (
        Names(
            (
                "torch.Tensor._version",
                "torch.Tensor._base",
                "torch.Tensor._is_view",
                "torch.Tensor.__array__",
                "torch.Tensor.__deepcopy__",
                "torch.Tensor.copy_",
                "torch.Tensor.cpu",
                "torch.Tensor.cuda",
                "torch.is_inference",
            )
        ),
        Members("torch.Tensor", vocabulary=True),
    ),
    "autograd": (
        Names(
            (
                "torch.no_grad",
                "torch.enable_grad",
                "torch.set_grad_enabled",
                "torch.inference_mode",
                "torch.is_grad_enabled",
                "torch.is_inference_mode_enabled",
            )
        ),
        All("torch.autograd"),
        All("torch.autograd.grad_mode"),
        All("torch.autograd.anomaly_mode"),
        All("torch.autograd.function"),
        Members("torch.autograd.function.FunctionCtx"),
        Members("torch.autograd.Function"),
        All("torch.autograd.graph"),
        Members("torch.autograd.graph.Node"),
        All("torch.autograd.forward_ad"),
        All("torch.autograd.functional"),
    ),
    "module": (
        Names(
            (
                "torch.nn.Parameter",
                "torch.nn.Buffer",
                "torch.nn.Module.__setattr__",
                "torch.nn.Module.training",
            )
        ),
        Members("torch.nn.Module"),
    ),
    "optim": (
        Names(
            (
                "torch.optim.Optimizer.param_groups",
                "torch.optim.Optimizer.state",
                "torch.optim.Optimizer.defaults",
                "torch.optim.SGD",
                "torch.optim.swa_utils.AveragedModel",
            )
        ),
        Members("torch.optim.Optimizer"),
    ),
    "func": (All("torch.func"),),
    "checkpoint": (All("torch.utils.checkpoint"),),
    "distributed": (
        Names(
            (
                "torch.nn.parallel.DistributedDataParallel",
                "torch.nn.parallel.DistributedDataParallel._set_static_graph",
                "torch.distributed.fsdp.fully_shard",
                "torch.distributed.all_gather",
                "torch.distributed.nn.functional.all_gather",
            )
        ),
        Members("torch.nn.parallel.DistributedDataParallel", own=True),
        Members("torch.distributed.fsdp.FSDPModule", own=True),
    ),
    "compile": (
        Names(
            (
                "torch.compile",
                "torch._dynamo.config.capture_scalar_outputs",
                "torch._dynamo.config.compiled_autograd",
            )
        ),
        All("torch.compiler"),
    ),
}


def resolve(name: str) -> object:
    """The object a dotted name stands for (module, then attributes)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = _attribute(obj, attr)
        return obj
    raise ImportError(name)


def _attribute(obj: object, attr: str) -> object:
    if isinstance(obj, type) and attr in ("training", "param_groups", "state", "defaults"):
        return None  # an instance attribute, set in __init__
    return inspect.getattr_static(obj, attr) if isinstance(obj, type) else getattr(obj, attr)


def _skip(obj: object) -> bool:
    """Submodules and typing constructs are not APIs."""
    if isinstance(obj, types.ModuleType | typing.TypeVar):
        return True
    return type(obj).__module__ in ("typing", "collections.abc", "_collections_abc")


def _yield_all(module: str) -> list[str]:
    mod = importlib.import_module(module)
    return [f"{module}.{n}" for n in mod.__all__ if not _skip(getattr(mod, n))]


def _yield_members(src: Members) -> list[str]:
    import torch

    cls = resolve(src.cls)
    names = sorted(vars(cls)) if src.own else sorted(dir(cls))
    out = []
    for n in names:
        if n.startswith("_") or (src.own and n in dir(torch.nn.Module)):
            continue
        obj = inspect.getattr_static(cls, n)
        if _skip(obj) or (src.vocabulary and not _speaks_of_autograd(n, getattr(cls, n))):
            continue
        out.append(f"{src.cls}.{n}")
    return out


def _speaks_of_autograd(name: str, obj: object) -> bool:
    return bool(AUTOGRAD_NAME.search(name) or AUTOGRAD_DOC.search(getattr(obj, "__doc__", None) or ""))


def _names(src) -> list[str]:
    if isinstance(src, All):
        return _yield_all(src.module)
    if isinstance(src, Members):
        return _yield_members(src)
    return list(src.names)


_DOC_SIGNATURE = re.compile(r"^\s*\w+\((?P<args>[^)]*)\)")


def params(name: str) -> tuple[str, ...]:
    """The parameters of a callable (without self, *args and **kwargs)."""
    obj = resolve(name)
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    if isinstance(obj, property) or obj is None or not callable(obj) or _is_enum(obj):
        return EXTRA_PARAMS.get(name, ())
    try:
        sig = inspect.signature(obj)
        found = [
            p.name
            for p in sig.parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
    except (TypeError, ValueError):
        found = _doc_params(obj)
    return tuple(found) + tuple(p for p in EXTRA_PARAMS.get(name, ()) if p not in found)


def _is_enum(obj: object) -> bool:
    """An enum's "parameters" are Enum's functional API, not the API's own."""
    return isinstance(obj, type) and issubclass(obj, enum.Enum)


def _doc_params(obj: object) -> list[str]:
    m = _DOC_SIGNATURE.match(getattr(obj, "__doc__", None) or "")
    if not m:
        return []
    out = []
    for arg in m["args"].split(","):
        arg = arg.split("=")[0].strip().lstrip("*")
        if arg and arg not in ("self", "args", "kwargs"):
            out.append(arg)
    return out


@cache
def candidates() -> tuple[Candidate, ...]:
    """Every candidate API of the pinned torch, in namespace and source order."""
    seen: dict[object, str] = {}
    out = []
    for namespace in NAMESPACES:
        for src in SOURCES[namespace]:
            for name in _names(src):
                key = _identity(name)
                if key in seen:
                    continue
                seen[key] = name
                out.append(Candidate(name, namespace, params(name)))
    return tuple(out)


def _identity(name: str) -> object:
    """Two names for one function or class are one candidate."""
    obj = resolve(name)
    if isinstance(obj, types.FunctionType | type | types.BuiltinFunctionType):
        return ("object", id(obj))
    return ("name", name)
