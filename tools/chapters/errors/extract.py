"""The candidate messages, extracted from PyTorch itself: ``data/errors-candidates.yml``.

Python: the files named under ``sources:`` in ``data/errors.yml`` are read from the
installed torch wheel (exact at its commit, ``torch.version.git_version``), or from
``--source DIR``. Extraction keeps the fixed text of each message and writes its variable
parts as placeholders ``{...}``: ``raise XError(...)``, ``warnings.warn(...)``,
``torch._check``, DDP's ``_log_and_throw`` and Dynamo's graph breaks
(``unimplemented(gb_type=..., explanation=...)``). A source given as
``{files: GLOB, match: REGEX}`` keeps only the messages that match.

C++: the sources are not in the wheel, so the messages are read from the wheel's own
binaries (``tools.chapters.errors.binary``): every message literal on the subject, with
the file and line its raising call passes (``__FILE__``/``__LINE__``, exact at the pinned
commit, ``where: call``), or the file its function names (``where: function``, no line).
A C++ message is a candidate when its file matches a glob of ``sources:``; one whose
file the binary does not tell is kept under its library's name (``where: library``)
unless ``data/errors-locations.yml`` names the file the search tool found it in
(``where: search``, ``read_at``: the commit of the stored copy). The header scan below
(``cpp_messages``) re-reads a message from the wheel's headers where the binary locates
it in one.
"""

from __future__ import annotations

import ast
import fnmatch
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from tools.core.errors import ToolError

CANDIDATES_HINT = ".venv/bin/python -m tools errors candidates"


class ExtractError(ToolError):
    """A source the extraction cannot read; the message names it and what to do."""


@dataclass
class Candidate:
    message: str
    kind: str  # error | warning
    type: str  # the exception or warning class
    via: str  # raise, warnings.warn, TORCH_CHECK, ...
    file: str
    line: int | None
    function: str | None = None
    in_build: bool | None = None
    where: str | None = None  # C++: call | function | search | library
    read_at: str | None = None  # C++ located by the search tool: the stored copy's commit

    @property
    def id(self) -> str:
        stem = re.sub(r"[^a-z0-9]+", "-", Path(self.file).name.lower()).strip("-")
        digest = hashlib.sha1(f"{self.file}\0{self.message}".encode()).hexdigest()[:6]
        return f"{stem}-{digest}"

    def as_dict(self) -> dict:
        out = {
            "id": self.id,
            "message": self.message,
            "kind": self.kind,
            "type": self.type,
            "via": self.via,
            "file": self.file,
            "line": self.line,
        }
        if self.function:
            out["function"] = self.function
        if self.in_build is not None:
            out["in_build"] = self.in_build
        if self.where:
            out["where"] = self.where
        if self.read_at:
            out["read_at"] = self.read_at
        return out


# --------------------------------------------------------------------------- Python
_PCT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrfgixeEGc]")


def _placeholder(node: ast.AST) -> str:
    text = ast.unparse(node)
    return "{" + (text if len(text) <= 40 else "…") + "}"


def _text(node: ast.AST) -> str | None:
    """The message an expression builds: fixed text, variable parts as {...};
    None when it holds no fixed text at all."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append(_placeholder(v.value))
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else _placeholder(node.left)) + (
            right if right is not None else _placeholder(node.right)
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = _text(node.left)
        return None if left is None else _PCT.sub("{…}", left)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join")
    ):
        base = _text(node.func.value)
        if node.func.attr == "format" and base is not None:
            return re.sub(r"\{[^{}]*\}", lambda m: "{" + (m.group(0)[1:-1] or "…") + "}", base)
        if node.func.attr == "join" and node.args:
            inner = _text(node.args[0])
            return inner
        return None
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _text(node.elt)
    if isinstance(node, (ast.List, ast.Tuple)):
        parts = [t for t in (_text(e) for e in node.elts) if t]
        return " ".join(parts) if parts else None
    if isinstance(node, ast.IfExp):
        return _text(node.body) or _text(node.orelse)
    return None


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ast.unparse(node)


def _is_warn(call: ast.Call) -> bool:
    f = call.func
    return (isinstance(f, ast.Attribute) and f.attr == "warn" and _name(f.value) == "warnings") or (
        isinstance(f, ast.Name) and f.id == "warn"
    )


class _Visitor(ast.NodeVisitor):
    def __init__(self, file: str, variables: dict[str, str]):
        self.file = file
        self.stack: list[str] = []
        self.found: list[Candidate] = []
        self.variables = variables  # module-level string constants

    def _scoped(self, node):
        self.stack.append(node.name)
        saved = dict(self.variables)
        if not isinstance(node, ast.ClassDef):  # a message built in a local first: msg = (...)
            for sub in ast.walk(node):
                if (
                    isinstance(sub, ast.Assign)
                    and len(sub.targets) == 1
                    and isinstance(sub.targets[0], ast.Name)
                ):
                    value = _text(sub.value)
                    if value and len(value) > 20:
                        self.variables[sub.targets[0].id] = value
        self.generic_visit(node)
        self.variables = saved
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def _message(self, node: ast.AST | None) -> str | None:
        if node is None:
            return None
        if isinstance(node, ast.Name) and node.id in self.variables:
            return self.variables[node.id]
        return _text(node)

    def _add(self, message, kind, type_, via, node):
        message = " ".join(message.split())
        if not re.search(r"[A-Za-z]{2}", message):
            return
        self.found.append(
            Candidate(message, kind, type_, via, self.file, node.lineno, ".".join(self.stack) or None)
        )

    def visit_Return(self, node: ast.Return):
        # a helper that builds a message for a raise elsewhere: def _get_notallclose_msg(...)
        if self.stack and re.search(r"msg|message", self.stack[-1]) and node.value is not None:
            message = self._message(node.value)
            if message and len(message) > 20:
                self._add(message, "error", "Exception", "message function", node)
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise):
        exc = node.exc
        if isinstance(exc, ast.Call):
            arg = exc.args[0] if exc.args else None
            message = self._message(arg)
            if message:
                self._add(message, "error", _name(exc), "raise", node)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call):
        if _is_warn(node):
            message = self._message(node.args[0] if node.args else None)
            category = node.args[1] if len(node.args) > 1 else None
            for kw in node.keywords:
                if kw.arg == "category":
                    category = kw.value
            if message:
                type_ = _name(category) if category is not None else "UserWarning"
                self._add(message, "warning", type_, "warnings.warn", node)
        elif (
            isinstance(node.func, ast.Attribute) and node.func.attr == "_log_and_throw" and len(node.args) > 1
        ):
            message = self._message(node.args[1])  # DDP: self._log_and_throw(ErrorType, message)
            if message:
                self._add(message, "error", _name(node.args[0]), "_log_and_throw", node)
        elif _name(node.func) in ("unimplemented", "unimplemented_v2") and any(
            kw.arg == "gb_type" for kw in node.keywords
        ):
            kws = {kw.arg: self._message(kw.value) for kw in node.keywords}
            message = " Explanation: ".join(t for t in (kws.get("gb_type"), kws.get("explanation")) if t)
            if message:
                self._add(message, "error", "Unsupported", "unimplemented", node)
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "_check" and len(node.args) > 1:
            msg = node.args[1]
            if isinstance(msg, ast.Lambda):
                msg = msg.body
            message = self._message(msg)
            if message:
                self._add(message, "error", "RuntimeError", "torch._check", node)
        self.generic_visit(node)


def python_messages(text: str, file: str) -> list[Candidate]:
    try:
        tree = ast.parse(text)
    except SyntaxError as err:
        raise ExtractError(
            f"{file}:{err.lineno}: not Python ({err.msg}); is --source a pytorch checkout?"
        ) from None
    variables = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _text(node.value)
            if value and len(value) > 20:
                variables[node.targets[0].id] = value
    visitor = _Visitor(file, variables)
    visitor.visit(tree)
    return visitor.found


# --------------------------------------------------------------------------- C++
_MACROS = {
    # macro: (kind, type, has a condition first)
    "TORCH_CHECK": ("error", "RuntimeError", True),
    "TORCH_CHECK_VALUE": ("error", "ValueError", True),
    "TORCH_CHECK_TYPE": ("error", "TypeError", True),
    "TORCH_CHECK_INDEX": ("error", "IndexError", True),
    "TORCH_CHECK_NOT_IMPLEMENTED": ("error", "NotImplementedError", True),
    "TORCH_INTERNAL_ASSERT": ("internal", "RuntimeError", True),
    "TORCH_INTERNAL_ASSERT_DEBUG_ONLY": ("internal", "RuntimeError", True),
    "AT_ERROR": ("error", "RuntimeError", False),
    "TORCH_WARN": ("warning", "UserWarning", False),
    "TORCH_WARN_ONCE": ("warning", "UserWarning", False),
    "TORCH_WARN_DEPRECATION": ("warning", "DeprecationWarning", False),
    "throw std::runtime_error": ("error", "RuntimeError", False),
    "throw std::logic_error": ("error", "RuntimeError", False),
    "throw TypeError": ("error", "TypeError", False),
    "throw ValueError": ("error", "ValueError", False),
    "throw IndexError": ("error", "IndexError", False),
    "THPUtils_setError": ("error", "RuntimeError", False),
    "THPUtils_assert": ("error", "RuntimeError", True),
    "THPUtils_assertRet": ("error", "RuntimeError", 2),
}
_PYERR = re.compile(r"\bPyErr_(SetString|Format|WarnEx)\s*\(\s*PyExc_(\w+)\s*,")
_STREAM = re.compile(r"^\s*(?:\w+)\s*<<\s*(?=\")", re.M)  # oss << "..." << x; a message built in a stream
_CALL = re.compile(
    r"(?<![\w.])("
    + "|".join(re.escape(m).replace(r"\ ", r"\s+") for m in sorted(_MACROS, key=len, reverse=True))
    + r")\s*\("
)
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESC = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\", "0": ""}


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESC.get(m.group(1), m.group(1)), s)


def _close(text: str, start: int) -> int:
    """Index of the parenthesis closing the one before ``start`` (strings, chars and comments skipped)."""
    depth, i = 1, start
    while i < len(text):
        c = text[i]
        if c == '"':
            m = _LITERAL.match(text, i)
            i = m.end() if m else i + 1
            continue
        if c == "'" and text[i + 1 : i + 2] != "'":
            j = text.find("'", i + 2 if text[i + 1 : i + 2] == "\\" else i + 1)
            i = (j + 1) if j != -1 and j - i <= 4 else i + 1
            continue
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i == -1 else i
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _split_args(body: str) -> list[str]:
    args, depth, cur, i = [], 0, [], 0
    while i < len(body):
        c = body[i]
        if c == '"':
            m = _LITERAL.match(body, i)
            if m:
                cur.append(m.group(0))
                i = m.end()
                continue
        if c in "([{<" and not (c == "<" and not re.match(r"<\s*[\w:]", body[i:])):
            depth += 1 if c != "<" else 0
        if c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        args.append("".join(cur).strip())
    return args


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", lambda m: "" if '"' not in m.group(0) else m.group(0), text)


def _cpp_text(args: list[str], constants: dict[str, str]) -> str:
    parts = []
    for arg in args:
        arg = _strip_comments(arg).strip()
        literals = _LITERAL.findall(arg)
        rest = _LITERAL.sub("", arg).strip()
        if literals and not rest:
            parts.append("".join(_unescape(s) for s in literals))
        elif arg in constants:
            parts.append(constants[arg])
        elif arg:
            short = " ".join(arg.split())
            parts.append("{" + (short if len(short) <= 40 else "…") + "}")
    return "".join(parts)


_CONST = re.compile(
    r'(?:constexpr|const)\s+(?:const\s+)?char\s*\*?\s*(?:const\s+)?(\w+)(?:\[\])?\s*=\s*((?:"(?:[^"\\\n]|\\.)*"\s*)+);'
)


def cpp_constants(text: str) -> dict[str, str]:
    return {
        name: "".join(_unescape(s) for s in _LITERAL.findall(value)) for name, value in _CONST.findall(text)
    }


def cpp_messages(text: str, file: str, constants: dict[str, str], keep_lines: bool = True) -> list[Candidate]:
    found = []
    text = re.sub(r"\\[ \t]*\n", " \n", text)  # macro line continuations: one statement
    spans = [(m.start(), m.end(), m.group(1)) for m in _CALL.finditer(text)]
    spans += [(m.start(), m.end(), f"PyErr:{m.group(1)}:{m.group(2)}") for m in _PYERR.finditer(text)]
    spans += [(m.start(), m.end(), "stream") for m in _STREAM.finditer(text)]
    for start, end, macro in sorted(spans):
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].lstrip().startswith(("//", "*", "#define")):
            continue
        if macro == "stream":
            close = text.find(";", end)
            args = [a.strip() for a in re.split(r"<<(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", text[end:close])]
            kind, type_, via = "error", "RuntimeError", "message stream"
            message = _cpp_text(args, constants)
        elif macro.startswith("PyErr:"):
            _, fn, exc = macro.split(":")
            close = _close(text, end)
            args = _split_args(text[end:close])
            kind = "warning" if fn == "WarnEx" else "error"
            type_, via = exc, f"PyErr_{fn}"
            message = _cpp_text(args[:1], constants)
            if "%" in message:
                message = re.sub(r"%(?:l|ll|z)?[sdifuxRSU]", "{…}", message)
        else:
            key = " ".join(macro.split())
            kind, type_, has_cond = _MACROS[key]
            close = _close(text, end)
            if close == -1:
                continue
            args = _split_args(text[end:close])
            message = _cpp_text(args[int(has_cond) :], constants)
            via = key
        message = " ".join(message.split())
        if not re.search(r"[A-Za-z]{2}", message) and kind != "internal":
            continue
        line = text.count("\n", 0, start) + 1 if keep_lines else None
        found.append(Candidate(message or "(no message)", kind, type_, via, file, line))
    return found


# --------------------------------------------------------------------------- the build
def _covered(piece: bytes, blobs: list[bytes], most: int = 3) -> bool:
    """``piece`` is in a binary whole, or as at most ``most`` strings of at least four
    bytes that follow each other (a compiler may store one message as several literals)."""
    if any(piece in b for b in blobs):
        return True
    for _ in range(most):
        lo, hi = 0, len(piece)
        while lo < hi:  # the longest prefix found in a binary
            mid = (lo + hi + 1) // 2
            if any(piece[:mid] in b for b in blobs):
                lo = mid
            else:
                hi = mid - 1
        if lo < 4:
            return False
        piece = piece[lo:]
        if not piece:
            return True
    return False


def in_build(message: str, blobs: list[bytes]) -> bool:
    """Every fixed piece of ``message`` (split at its placeholders) of at least six
    characters is in one of the binaries."""
    pieces = [p.strip() for p in re.split(r"\{[^{}]*\}", message) if len(p.strip()) >= 6]
    if not pieces:
        return any(message.encode() in b for b in blobs)
    return all(_covered(p.encode(), blobs) for p in pieces)


# --------------------------------------------------------------------------- a tree
@dataclass
class SourceFile:
    path: str
    read_at: str
    origin: str  # wheel | checkout | excerpt | binary | search
    text: str = ""


_READ_AT = re.compile(r"^\s*(?://|#)\s*read-at:\s*([0-9a-f]{40})\s*$", re.M)
_EXCERPT = re.compile(r"^\s*(?://|#)\s*excerpt:", re.M)


def _glob(source) -> str:
    return source if isinstance(source, str) else source["files"]


def matches(path: str, patterns: list) -> bool:
    return any(fnmatch.fnmatchcase(path, _glob(p)) for p in patterns)


def selected(c: Candidate, sources: list) -> bool:
    """A message of a file in scope: a plain glob keeps all of a file's messages, a
    ``{files, match}`` source only those that match."""
    for s in sources:
        if fnmatch.fnmatchcase(c.file, _glob(s)) and (isinstance(s, str) or re.search(s["match"], c.message)):
            return True
    return False


def extract(files: list[SourceFile]) -> list[Candidate]:
    constants: dict[str, str] = {}
    for f in files:
        if f.path.endswith((".h", ".cpp")):
            constants.update(cpp_constants(f.text))
    out: list[Candidate] = []
    for f in files:
        if f.path.endswith(".py"):
            out += python_messages(f.text, f.path)
        else:
            out += cpp_messages(f.text, f.path, constants, keep_lines=f.origin != "excerpt")
    return out


def read_at(text: str, default: str) -> tuple[str, str | None]:
    """The commit a copied file names in its header, and whether it is an excerpt."""
    head = "\n".join(text.splitlines()[:5])
    m = _READ_AT.search(head)
    return (m.group(1) if m else default), ("excerpt" if _EXCERPT.search(head) else None)


# --------------------------------------------------------------------------- the data file
def torch_root() -> Path:
    """The installed torch package, whose commit must be the pinned one."""
    import torch

    return Path(torch.__file__).parent


def torch_commit() -> str:
    import torch

    return torch.version.git_version


def _wheel_files(root: Path, patterns: list) -> list[SourceFile]:
    commit = torch_commit()
    out = []
    base = root.parent
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(base).as_posix()
        if matches(name, patterns):
            out.append(SourceFile(name, commit, "wheel", path.read_text(encoding="utf-8")))
    return out


def _source_files(source: Path, patterns: list, default: str) -> list[SourceFile]:
    out = []
    for path in sorted(p for p in source.rglob("*.py") if p.is_file()):
        name = path.relative_to(source).as_posix()
        if not matches(name, patterns):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        commit, excerpt = read_at(text, default)
        out.append(SourceFile(name, commit, excerpt or "checkout", text))
    return out


def binaries(root: Path) -> list[bytes]:
    """The NUL-terminated strings of the shipped libraries, joined by NUL: where a
    message compiled into them is."""
    strings = []
    for name in ("libtorch_cpu.so", "libtorch_python.so", "libc10.so"):
        path = root / "lib" / name
        if not path.is_file():
            raise ExtractError(f"{path} is missing: the C++ messages cannot be checked against the build.")
        strings += [s for s in path.read_bytes().split(b"\0") if len(s) >= 4]
    return [b"\0".join(strings)]


def cpp_candidates(
    root: Path, sources: list, locations: list[dict]
) -> tuple[list[SourceFile], list[Candidate]]:
    """The C++ messages of the binaries whose file is in scope, each located (see the
    module's docstring); ``locations`` are the files the search tool found for messages
    the binary does not locate (``data/errors-locations.yml``)."""
    from tools.chapters.errors import binary

    commit = torch_commit()
    found, files = [], {}
    for f in binary.messages(root, cpp_messages):
        file, read, where = f.file, commit, "call" if f.line else "function"
        if file is None:
            hit = next((loc for loc in locations if loc["match"] in f.message), None)
            if hit:
                file, read, where = hit["file"], hit["read_at"], "search"
            else:
                file, where = f.lib, "library"
        if where != "library" and not matches(file, sources):
            continue
        line = f.line if where == "call" else None  # a line without its file says nothing
        c = Candidate(f.message, f.kind, f.type, f.via, file, line, in_build=True, where=where)
        if where == "search":
            c.read_at = read
        origin = "search" if where == "search" else "binary"
        files.setdefault((file, origin), SourceFile(file, read, origin))
        found.append(c)
    return list(files.values()), found


def collect(
    patterns: list, source: Path | None, locations: list[dict] | None = None
) -> tuple[list[SourceFile], list[Candidate]]:
    """Every source file in scope and its candidate messages: the wheel's Python files
    (a file under ``source`` replaces the wheel's copy of it), then the C++ messages
    of the wheel's binaries."""
    root = torch_root()
    files = _wheel_files(root, patterns)
    if source is not None:
        if not source.is_dir():
            raise ExtractError(f"--source {source}: no such folder; point it at a pytorch checkout.")
        extra = _source_files(source, patterns, "unknown")
        names = {f.path for f in extra}
        files = [f for f in files if f.path not in names] + extra
    found = [c for c in extract(files) if selected(c, patterns)]
    cpp_files, cpp = cpp_candidates(root, patterns, locations or [])
    used = {c.file for c in found}
    files = [f for f in files if f.path in used] + cpp_files
    files.sort(key=lambda f: (f.path, f.origin))
    seen, unique = set(), []
    for c in found + cpp:
        if (c.file, c.message) not in seen:
            seen.add((c.file, c.message))
            unique.append(c)
    return files, unique


def _q(value) -> str:
    import json

    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def render_candidates(sources: list, files: list[SourceFile], found: list[Candidate]) -> str:
    lines = [
        "# Generated: every error and warning message in the files in scope (data/errors.yml,",
        f"# sources:), from PyTorch itself. Do not edit; regenerate with\n#   {CANDIDATES_HINT}",
        "# Python files: read from the torch wheel, at its own commit. C++ messages: read from the",
        "# wheel's binaries (libc10.so, libtorch_cpu.so, libtorch_python.so); where: call, the",
        "# file and line the raising call passes (__FILE__, __LINE__), exact at torch_commit;",
        "# where: function, the file the function that loads the message names (no line);",
        "# where: search, the file the search tool found it in, in pytorch/pytorch at read_at",
        "# (data/errors-locations.yml; no line); where: library, not located (the library's name).",
        f"torch_commit: {_q(torch_commit())}",
        "sources:",
        *[f"  - {_q(p)}" for p in sources],
        "files:",
    ]
    for f in files:
        lines.append(f"  - {{path: {_q(f.path)}, read_at: {_q(f.read_at)}, origin: {f.origin}}}")
    lines.append("candidates:")
    for c in found:
        d = c.as_dict()
        lines.append(f"  - id: {d.pop('id')}")
        for k, v in d.items():
            lines.append(f"    {k}: {_q(v)}")
    return "\n".join(lines) + "\n"
