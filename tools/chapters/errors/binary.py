"""The C++ candidate messages, read from the pinned build's own binaries.

``libc10.so``, ``libtorch_cpu.so`` and ``libtorch_python.so`` of the installed wheel hold
every C++ message literal of the release, so this list is complete for the pinned commit
by construction (the source files are not in the wheel; copies of them elsewhere are at
other commits). A message is read where the machine code raises it:

1. the string literals of ``.rodata``, and every instruction that loads one
   (``lea reg, [rip+literal]``);
2. every call to a function that raises or warns: ``c10::detail::torchCheckFail``
   (``TORCH_CHECK``), the ``c10::Error``/``TypeError``/``ValueError``/``IndexError``/
   ``NotImplementedError`` constructors (``TORCH_CHECK_*``, ``C10_THROW_ERROR``), the
   ``c10::Warning`` constructor (``TORCH_WARN*``), ``std::runtime_error``, and the Python
   C API (``PyErr_SetString``, ``PyErr_Format``, ``PyErr_WarnEx``, ``torch::TypeError``,
   ``THPUtils_setError``);
3. the literals loaded just before such a call in the same function (each within
   ``GAP`` bytes of the next, the last within ``FIRST_GAP`` of the call, none before the
   previous raising call) are the fixed pieces of one message. A message built in a
   stream (``ss << "..."``, most pieces loaded into ``rsi``) keeps the code's order; a
   compiler evaluates the arguments of ``c10::str(...)`` right to left, so those pieces
   are put back in order when the last looks more like a message's start than the
   first; a value the message prints (``{…}``) is assumed between two pieces unless
   the first ends a sentence and the next starts one;
4. the ``__FILE__`` and ``__LINE__`` that ``TORCH_CHECK`` and ``TORCH_WARN`` pass to that
   call are its location, exact at the pinned commit: the line is the immediate loaded
   into the call's line argument (``mov edx, imm32``, or a store into the
   ``SourceLocation`` on the stack), the file the ``/__w/pytorch/pytorch/...`` literal loaded
   next to it (else the one the enclosing function loads). Where the location is a header
   of the wheel, the message is re-read from that header at that line (the wheel's headers
   carry one added first line, an include guard, so the header's line is one more).

A literal on the subject that is not loaded next to a raising call (a message kept in a
named constant, built by a helper or in a stream far from its ``TORCH_CHECK``) is a
candidate too, alone, located in the file the function that loads it names (its ``.cpp``
before an inlined header's), with no line. A message whose file the binary does not tell
at all is kept only if it names one of ``CORE_VOCABULARY``'s words.

On the subject: a message matches ``VOCABULARY`` (autograd's words); not a message:
``NOISE`` (documentation strings, operator schemas, code templates) and identifiers
(``__func__`` names). The areas in scope are the ``sources:`` globs of ``data/errors.yml``;
a message whose file is not known is kept, under its library's name.
"""

from __future__ import annotations

import bisect
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from tools.core.errors import ToolError

LIBRARIES = ("libc10.so", "libtorch_cpu.so", "libtorch_python.so")
PATH_PREFIX = b"/__w/pytorch/pytorch/"  # where the release was built: __FILE__'s prefix
GAP, FIRST_GAP, WINDOW = 160, 400, 2500  # bytes of machine code
RSI = 6  # the register of operator<<(ostream&, const char*)'s text

# A message on the site's subject names one of these (case-insensitive).
VOCABULARY = re.compile(
    r"""(?ix)
    \bgrad(s|ient|ients|_fn|_mode|_output|_outputs|_input)?\b | backward | \bleaf\b | \bleaves\b
    | requires[_ ]grad | in-?place | \bviews?\b | _version\b | version\ counter | \bsaved\b
    | save_for_backward | \bhooks?\b | detach | autograd | \bFunction\b | checkpoint
    | functorch | \bvmap | \bjvp\b | \bvjp\b | jacrev | jacfwd | numpy | DistributedDataParallel
    | \bDDP\b | reducer | \bbucket | inference[ _]?mode | inference\ tensor | no_grad
    | forward\ AD | forward-mode | \bdual\b | tangent | mark_dirty | mark_non_differentiable
    | \.data\b | retain_graph | create_graph | \bgraph\b | differentiab | differentiated
    | allow_unused | \bvariables?\b | derivative | gradcheck | is_leaf
    """
)
# A message whose file the binary does not tell is kept only when it names one of these
# (the words above without graph, variable, Function, ..., which name many other
# subsystems' strings).
CORE_VOCABULARY = re.compile(
    r"""(?ix)
    \bgrad(s|ient|ients|_fn|_mode|_output|_outputs|_input)?\b | backward | \bleaf\b | \bleaves\b
    | requires[_ ]grad | in-?place | _version\b | version\ counter | save_for_backward | detach
    | autograd | checkpoint | functorch | \bvmap | \bjvp\b | \bvjp\b | DistributedDataParallel
    | \bDDP\b | inference[ _]?mode | inference\ tensor | no_grad | forward\ AD | mark_dirty
    | mark_non_differentiable | retain_graph | create_graph | \bhooks?\b
    """
)
# Not a message: identifiers (__func__), documentation, schemas, code templates, libraries'
# own strings.
_IDENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_:]*|operator\S*|~?\w+::.*|\{lambda.*)$")
NOISE = re.compile(
    r"""(?x)
    basic_string | vector:: | PYBIND11 | ^torch\.Tensor$ | ^\w+(\.\w+)?\((\w|\*)[^)]*\)$
    | ^[\w.]+\(.*\)\ ->\ | ^\w+(\.\w+)?\((Tensor|SymInt|int|Scalar|\*)
    | ^\s*\n | \n\s{2,} | `` | :meth: | :class: | Args: | Returns: | \$\{ | ^\[INFO\] | ^%s
    | Check\ failed:\  | ^def\  | oneMKL | oneDNN | ONEDNN | primitive\ descriptor
    """
)

# Functions whose call raises or warns: (mangled-name regex, via, type, how the line is passed)
RAISERS = [
    (r"^_ZN3c106detail14torchCheckFailEPKcS2_j", "TORCH_CHECK", "RuntimeError", "edx"),
    (r"^_ZN3c109TypeErrorC[12]ENS_14SourceLocation", "TORCH_CHECK_TYPE", "TypeError", "stack"),
    (r"^_ZN3c1010ValueErrorC[12]ENS_14SourceLocation", "TORCH_CHECK_VALUE", "ValueError", "stack"),
    (r"^_ZN3c1010IndexErrorC[12]ENS_14SourceLocation", "TORCH_CHECK_INDEX", "IndexError", "stack"),
    (
        r"^_ZN3c1019NotImplementedErrorC[12]ENS_14SourceLocation",
        "TORCH_CHECK_NOT_IMPLEMENTED",
        "NotImplementedError",
        "stack",
    ),
    (r"^_ZN3c105ErrorC[12]ENS_14SourceLocation", "C10_THROW_ERROR", "RuntimeError", "stack"),
    (r"^_ZN3c107WarningC[12]E", "TORCH_WARN", "UserWarning", "stack"),
    (r"^_ZNSt13runtime_errorC[12]E", "throw std::runtime_error", "RuntimeError", None),
    (r"^PyErr_SetString$", "PyErr_SetString", "RuntimeError", None),
    (r"^PyErr_Format$", "PyErr_Format", "RuntimeError", None),
    (r"^PyErr_WarnEx$", "PyErr_WarnEx", "UserWarning", None),
    (r"^_ZN5torch9TypeErrorC[12]EPKcz$", "throw TypeError", "TypeError", None),
    (r"^_ZN5torch10ValueErrorC[12]EPKcz$", "throw ValueError", "ValueError", None),
    (r"^_ZN5torch10IndexErrorC[12]EPKcz$", "throw IndexError", "IndexError", None),
    (r"^_Z17THPUtils_setErrorPKcz$", "THPUtils_setError", "RuntimeError", None),
]
_RAISERS = [(re.compile(rx), via, type_, how) for rx, via, type_, how in RAISERS]
_LOCAL = (b"_ZN3c10", b"_ZN5torch", b"_Z17THPUtils", b"_ZNSt13runtime")


class BinaryError(ToolError):
    """A library the scan cannot read; the message names it and what to do."""


@dataclass
class Found:
    """One message as the binary holds it."""

    pieces: list[str]
    lib: str
    via: str
    type: str
    file: str | None = None
    line: int | None = None
    kind: str = "error"
    text: str = ""
    addrs: list[int] = field(default_factory=list)

    @property
    def message(self) -> str:
        return self.text or join(self.pieces)


# --------------------------------------------------------------------------- ELF
@dataclass
class Elf:
    data: bytes
    sections: dict[str, dict]

    @classmethod
    def read(cls, path: Path) -> Elf:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise BinaryError(
                f"{path}: cannot read it ({err.strerror}); is the torch wheel installed?"
            ) from None
        if data[:5] != b"\x7fELF\x02" or data[5] != 1:
            raise BinaryError(
                f"{path}: not a 64-bit little-endian ELF library; the scan reads x86-64 Linux wheels."
            )
        shoff = struct.unpack_from("<Q", data, 0x28)[0]
        entsize, count, names = struct.unpack_from("<HHH", data, 0x3A)
        raw = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize) for i in range(count)]
        base = raw[names][4]
        sections = {}
        for r in raw:
            name = data[base + r[0] : data.index(b"\0", base + r[0])].decode()
            sections[name] = {"addr": r[3], "off": r[4], "size": r[5]}
        for need in (".text", ".rodata", ".symtab", ".strtab"):
            if need not in sections:
                raise BinaryError(f"{path}: has no {need} section; the scan needs an unstripped build.")
        return cls(data, sections)

    def cstr(self, off: int) -> bytes:
        return self.data[off : self.data.index(b"\0", off)]

    def strings(self) -> dict[int, bytes]:
        """Every NUL-terminated string of .rodata, by address."""
        s = self.sections[".rodata"]
        raw = self.data[s["off"] : s["off"] + s["size"]]
        return {s["addr"] + m.start(): m.group() for m in re.finditer(rb"[^\0]+", raw)}

    def text(self):
        import numpy as np

        s = self.sections[".text"]
        return s["addr"], np.frombuffer(self.data, dtype=np.uint8, count=s["size"], offset=s["off"])

    def functions(self):
        """The function symbols, sorted by address: (starts, ends, name offsets)."""
        import numpy as np

        st, names = self.sections[".symtab"], self.sections[".strtab"]["off"]
        kind = np.dtype(
            [
                ("name", "<u4"),
                ("info", "u1"),
                ("other", "u1"),
                ("shndx", "<u2"),
                ("value", "<u8"),
                ("size", "<u8"),
            ]
        )
        syms = np.frombuffer(self.data, dtype=kind, count=st["size"] // 24, offset=st["off"])
        funcs = np.sort(syms[(syms["info"] & 0xF) == 2], order="value")
        start = funcs["value"].astype(np.int64)
        return start, start + funcs["size"].astype(np.int64), funcs["name"].astype(np.int64) + names

    def plt(self) -> dict[int, str]:
        """PLT stub address -> the imported function it jumps to."""
        if not {".plt", ".rela.plt", ".dynsym", ".dynstr"} <= set(self.sections):
            return {}
        dynsym, dynstr = self.sections[".dynsym"], self.sections[".dynstr"]
        rela, plt = self.sections[".rela.plt"], self.sections[".plt"]
        slot = {}
        for i in range(rela["size"] // 24):
            offset, info, _ = struct.unpack_from("<QQq", self.data, rela["off"] + 24 * i)
            name = struct.unpack_from("<I", self.data, dynsym["off"] + 24 * (info >> 32))[0]
            slot[offset] = self.cstr(dynstr["off"] + name).decode()
        out = {}
        for a in range(plt["addr"] + 16, plt["addr"] + plt["size"], 16):
            o = plt["off"] + a - plt["addr"]
            if self.data[o : o + 2] == b"\xff\x25":
                got = a + 6 + struct.unpack_from("<i", self.data, o + 2)[0]
                if got in slot:
                    out[a] = slot[got]
        return out


def _rel32(b, i):
    import numpy as np

    d = (
        b[i].astype(np.int64)
        | (b[i + 1].astype(np.int64) << 8)
        | (b[i + 2].astype(np.int64) << 16)
        | (b[i + 3].astype(np.int64) << 24)
    )
    return np.where(d >= 2**31, d - 2**32, d)


def _loads(base, b):
    """Every ``lea r64, [rip+disp32]``: (instruction address, target, destination
    register number), sorted by address."""
    import numpy as np

    i = np.nonzero((b[1:-6] == 0x8D) & ((b[:-7] & 0xFB) == 0x48) & ((b[2:-5] & 0xC7) == 0x05))[0]
    reg = ((b[i + 2] >> 3) & 7).astype(np.int64) | ((b[i] & 4).astype(np.int64) << 1)
    return base + i, base + i + 7 + _rel32(b, i + 3), reg


def _calls(base, b, targets):
    """Every ``call rel32`` to one of ``targets``: (call address, target), sorted."""
    import numpy as np

    i = np.nonzero(b[:-5] == 0xE8)[0]
    t = base + i + 5 + _rel32(b, i + 1)
    keep = np.isin(t, np.array(sorted(targets), dtype=np.int64))
    return base + i[keep], t[keep]


def _store_imm(b, i):
    """``mov DWORD PTR [mem], imm32`` at ``i``: (length, imm32) or None."""
    m = int(b[i + 1])
    if (m >> 3) & 7 or m >> 6 == 3:
        return None
    mod, rm = m >> 6, m & 7
    n = 2 + (rm == 4) + (1 if mod == 1 else 4 if mod == 2 or (mod == 0 and rm == 5) else 0)
    return n + 4, int.from_bytes(bytes(b[i + n : i + n + 4]), "little", signed=True)


def _line(b, base, call, how) -> int | None:
    """The __LINE__ a raising call receives: ``mov edx, imm32`` (torchCheckFail's third
    argument) or the ``SourceLocation``'s line stored on the stack, nearest the call."""
    i = call - base
    if how == "edx":
        for j in range(i - 5, max(i - 64, 0), -1):
            if b[j] == 0xBA:
                imm = int.from_bytes(bytes(b[j + 1 : j + 5]), "little")
                if 1 <= imm <= 60000:
                    return imm
    elif how == "stack":
        for j in range(i - 6, max(i - 240, 0), -1):
            if b[j] == 0xC7:
                d = _store_imm(b, j)
                if d and j + d[0] <= i and 1 <= d[1] <= 60000:
                    return d[1]
    return None


def is_piece(s: bytes) -> bool:
    """A literal that can be part of a message (not a path, name, document or binary data)."""
    if s.startswith(b"/__w/") or b"INTERNAL ASSERT FAILED" in s:
        return False
    try:
        t = s.decode()
    except UnicodeDecodeError:
        return False
    if _IDENT.match(t) or NOISE.search(t):
        return False
    return t.replace("\n", " ").replace("\t", " ").isprintable()


_STARTS = re.compile(r"^[A-Z0-9`'\"\[(]")


def _opening(piece: str) -> int:
    """How much a piece looks like a message's first: 2 capitalised, 1 a lower-case word,
    0 a continuation (space or punctuation first)."""
    c = piece[:1]
    if not c or c.isspace() or c in ".,;:)]}'\"-":
        return 0
    return 2 if c.isupper() else 1


def join(pieces: list[str]) -> str:
    """The pieces of one message as one text, ``{…}`` where a value is likely printed."""
    out = pieces[0] if pieces else ""
    for prev, nxt in zip(pieces, pieces[1:]):
        sentence = (
            prev.rstrip()[-1:] in ".:!?"
            and (prev[-1:].isspace())
            and (_STARTS.match(nxt) or nxt.startswith("\n"))
        )
        out += nxt if sentence or prev.endswith("\n") else "{…}" + nxt
    return " ".join(out.split())


def _order(pieces: list[str]) -> list[str]:
    """Code order, or reversed when the code loads the pieces last to first (a compiler
    evaluates ``c10::str(...)``'s arguments right to left): when the last piece looks
    more like a message's start than the first."""
    if len(pieces) > 1 and _opening(pieces[-1]) > _opening(pieces[0]):
        return pieces[::-1]
    return pieces


# --------------------------------------------------------------------------- one library
class _Library:
    """One library's strings, functions, string loads and raising calls."""

    def __init__(self, path: Path):
        import numpy as np

        elf = Elf.read(path)
        self.lib = path.name
        self.strings = elf.strings()
        start, self.end, name_off = elf.functions()
        self.raisers: dict[int, tuple] = {}
        named = list(elf.plt().items())
        for a, n in zip(start.tolist(), name_off.tolist()):
            if a and elf.data.startswith(_LOCAL, n):
                named.append((a, elf.cstr(n).decode()))
        for a, name in named:
            for rx, via, type_, how in _RAISERS:
                if rx.search(name):
                    self.raisers[a] = (via, type_, how)
        self.base, self.b = elf.text()
        site, target, register = _loads(self.base, self.b)
        keep = np.isin(target, np.fromiter(self.strings.keys(), dtype=np.int64))
        self.site, self.target, self.register = site[keep], target[keep], register[keep]
        self.paths = {a for a, s in self.strings.items() if s.startswith(PATH_PREFIX)}
        csite, ctarget = _calls(self.base, self.b, self.raisers)
        order = np.argsort(csite)
        self.csite, self.ctarget = csite[order], ctarget[order]
        self.starts = start.tolist()

    def function_of(self, addr: int) -> tuple[int, int] | None:
        k = bisect.bisect_right(self.starts, addr) - 1
        return (self.starts[k], int(self.end[k])) if k >= 0 and addr < self.end[k] else None

    def file_of_function(self, lo: int, hi: int, near: int) -> str | None:
        """The file a function names (its own source file before inlined headers'),
        nearest ``near``."""
        import numpy as np

        a0, a1 = np.searchsorted(self.site, lo), np.searchsorted(self.site, hi)
        found = [
            (not self.strings[t].endswith((b".cpp", b".cc")), abs(near - s), t)
            for s, t in zip(self.site[a0:a1].tolist(), self.target[a0:a1].tolist())
            if t in self.paths
        ]
        return self.strings[min(found)[2]][len(PATH_PREFIX) :].decode() if found else None

    def _pieces(self, lo: int, call: int) -> tuple[list[tuple[int, int]], str | None, dict]:
        """The string loads before ``call`` that make its message, and the file a load
        names right before it."""
        import numpy as np

        j0, j1 = np.searchsorted(self.site, lo), np.searchsorted(self.site, call)
        pieces: list[tuple[int, int]] = []
        file, last = None, call
        regs = dict(zip(self.site[j0:j1].tolist(), self.register[j0:j1].tolist()))
        for s, tg in zip(self.site[j0:j1].tolist()[::-1], self.target[j0:j1].tolist()[::-1]):
            if tg in self.paths:
                if file is None and call - s < FIRST_GAP:
                    file = self.strings[tg][len(PATH_PREFIX) :].decode()
                continue
            if not is_piece(self.strings[tg]):
                continue
            if last - s > (GAP if pieces else FIRST_GAP):
                break
            if not pieces or pieces[-1][1] != tg:
                pieces.append((s, tg))
            last = s
        return pieces, file, regs

    def raised(self) -> list[Found]:
        """Each raising call's message, with its location."""
        out: list[Found] = []
        prev = 0
        for call, t in zip(self.csite.tolist(), self.ctarget.tolist()):
            fn = self.function_of(call)
            lo = max(fn[0] if fn else call - WINDOW, call - WINDOW, prev + 5)
            prev = call
            pieces, file, regs = self._pieces(lo, call)
            if not pieces:
                continue
            via, type_, how = self.raisers[t]
            if file is None and fn:
                file = self.file_of_function(fn[0], fn[1], call)
            texts = [self.strings[tg].decode() for _, tg in pieces[::-1]]
            if 4 * sum(regs[s] == RSI for s, _ in pieces) < 3 * len(pieces):  # not a stream
                texts = _order(texts)
            out.append(
                Found(
                    pieces=texts,
                    lib=self.lib,
                    via=via,
                    type=type_,
                    file=file,
                    line=_line(self.b, self.base, call, how) if how else None,
                    kind="warning" if type_.endswith("Warning") else "error",
                    addrs=[tg for _, tg in pieces],
                )
            )
        return out

    def unraised(self, used: set[int]) -> list[Found]:
        """The literals on the subject that no raising call takes."""
        import numpy as np

        order = np.argsort(self.target, kind="stable")
        by_target, by_site = self.target[order], self.site[order]
        out = []
        for a, s in self.strings.items():
            if a in used or a in self.paths or not is_piece(s) or len(s) < 15 or b" " not in s.strip():
                continue
            text = s.decode()
            if not VOCABULARY.search(text):
                continue
            i0, i1 = np.searchsorted(by_target, a), np.searchsorted(by_target, a, side="right")
            files = set()
            for st in by_site[i0:i1].tolist():
                fn = self.function_of(st)
                f = self.file_of_function(fn[0], fn[1], st) if fn else None
                if f:
                    files.add(f)
            cpp = sorted(f for f in files if not f.endswith((".h", ".hpp")))
            file = cpp[0] if len(cpp) == 1 else (sorted(files)[0] if len(files) == 1 else None)
            out.append(Found([text], self.lib, "string", "RuntimeError", file=file, addrs=[a]))
        return out


def scan(path: Path) -> list[Found]:
    """Every message of one library: raised ones with their location, then the literals
    on the subject that no raising call takes."""
    library = _Library(path)
    raised = library.raised()
    return raised + library.unraised({a for f in raised for a in f.addrs})


# --------------------------------------------------------------------------- the wheel
def _header_text(found: Found, include: Path, cpp_messages) -> str | None:
    """The message re-read from the wheel's header at its line, where the binary locates it
    in one (the header's first line is an added include guard: one line more);
    ``cpp_messages`` is the source reader (tools.chapters.errors.extract's)."""
    if not (found.file and found.line and found.file.endswith((".h", ".hpp"))):
        return None
    for name in (
        found.file,
        found.file.removeprefix("aten/src/"),
        found.file.removeprefix("build/aten/src/"),
    ):
        path = include / name
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            shift = 1 if text.startswith("#if !defined(TORCH_STABLE_ONLY)") else 0
            for c in cpp_messages(text, found.file, {}):
                if c.line == found.line + shift and all(
                    p.strip() in c.message for p in found.pieces if p.strip()
                ):
                    return c.message
            return None
    return None


# Messages generated once per operator: one candidate per family and file.
FAMILIES = [
    (re.compile(r"^(Trying to use forward AD with )\w+( that does not support it)"), r"\1{op}\2"),
]


def messages(torch_root: Path, cpp_messages) -> list[Found]:
    """The messages on the subject in the three libraries, one per file and text (the
    first line where one file raises the same text twice); ``cpp_messages`` re-reads a
    message from a header (the caller's source reader: no import back to it)."""
    include = torch_root / "include"
    out, seen = [], {}
    for name in LIBRARIES:
        path = torch_root / "lib" / name
        if not path.is_file():
            raise BinaryError(f"{path} is missing: the C++ messages are read from the wheel's binaries.")
        for f in scan(path):
            words = CORE_VOCABULARY if f.file is None else VOCABULARY
            if not words.search(" ".join(f.pieces)):
                continue
            f.text = _header_text(f, include, cpp_messages) or join(f.pieces)
            for rx, to in FAMILIES:
                f.text = rx.sub(to, f.text)
            key = (f.file or f.lib, f.text)
            if key not in seen:
                seen[key] = f
                out.append(f)
            elif f.line and (seen[key].line is None or f.line < seen[key].line):
                seen[key].line, seen[key].via, seen[key].type = f.line, f.via, f.type
    return out
