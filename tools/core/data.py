"""The data files: one YAML loader, and their shapes declared as JSON Schemas.

Every file under ``data/`` has a schema in ``data/schemas/`` (``SCHEMAS``). The
loader reads YAML 1.2 booleans only (``true``/``false``): ``no``, ``off``, ``yes``
and ``on`` stay strings, which a schema then refuses where it wants a boolean or
one of a few words, instead of a silent ``False``. It keeps the line of every
mapping and list item, so a message names the file, the line and the entry:

    data/fact-check.yml:19, entry s000-01: verdict: 'no' is not one of ...

The schemas check the shape (fields, types, patterns, words); the loaders in the
chapter packages check only what a schema cannot: files, sections, asserts and
anchors that the data points to.

It uses libyaml (PyYAML's C loader), which reads the 80 KB files in ~0.1 s;
ruamel.yaml's round-trip loader (YAML 1.2, line numbers too) took ~20 times as long,
which every build and every `mkdocs serve` reload would pay.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from tools.core.errors import ToolError
from tools.core.memo import per_build
from tools.core.repo import ROOT, rel

SCHEMAS = ROOT / "data" / "schemas"


class DataError(ToolError, ValueError):
    """A data file that cannot be read or does not match its schema."""


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml: ~10x faster
    """SafeLoader with YAML 1.2 booleans (only true/false, any case) and no timestamps."""


# YAML 1.2 has no timestamps either: a date stays the text it is (2024-05-01).
_Loader.yaml_implicit_resolvers = {
    first: [
        (tag, rx)
        for tag, rx in resolvers
        if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")
    ]
    for first, resolvers in _Loader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


@dataclass
class Document:
    """A data file's content, and the 1-based line where each part of it starts."""

    path: Path
    data: object
    lines: dict[tuple, int]

    def line(self, where: tuple) -> int:
        """The line of ``where`` (keys and indexes from the top), or of its nearest parent."""
        while where not in self.lines and where:
            where = where[:-1]
        return self.lines.get(where, 1)

    def place(self, where: tuple, entries: str | None = None) -> str:
        """``file:line`` of ``where``, with ``, entry ID`` inside the ``entries`` list."""
        if not self.lines:  # JSON: no lines; name the place by its keys
            return f"{rel(self.path)}, at {'/'.join(map(str, where)) or 'the top'}"
        text = f"{rel(self.path)}:{self.line(where)}"
        if entries is not None and len(where) >= 2 and where[0] == entries and isinstance(where[1], int):
            entry = self.data[entries][where[1]]
            if isinstance(entry, dict) and "id" in entry:
                text += f", entry {entry['id']}"
        return text


def _index(node, where: tuple, lines: dict[tuple, int]) -> None:
    lines.setdefault(where, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _index(value, (*where, key.value), lines)
            lines[(*where, key.value)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index(item, (*where, i), lines)


def read_yaml(path: Path) -> Document:
    """The file's data and lines; a DataError naming the file if it is not YAML."""
    try:
        loader = _Loader(Path(path).read_bytes())
    except OSError as err:
        raise DataError(f"{rel(path)} cannot be read: {err.strerror}") from None
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as err:
        raise DataError(f"{rel(path)} is not valid YAML: {err}") from None
    finally:
        loader.dispose()
    lines: dict[tuple, int] = {}
    if node is not None:
        _index(node, (), lines)
    return Document(Path(path), data, lines)


def read_json(path: Path) -> Document:
    """A JSON file's data (no line numbers: messages name the entry instead)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DataError(f"{rel(path)} cannot be read as JSON: {err}") from None
    return Document(Path(path), data, {})


@per_build
def _validator(name: str):
    import jsonschema

    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _field(error) -> str:
    last = error.absolute_path[-1] if error.absolute_path else None
    return last if isinstance(last, str) else ""


def _problem(error) -> str:
    """One line a person can act on, for the common kinds of schema error."""
    kind, value = error.validator, error.instance
    if kind == "required":
        missing = [f for f in error.validator_value if f not in value]
        return f"missing field(s) {missing}"
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        unknown = sorted(set(value) - set(allowed))
        return f"unknown field(s) {unknown}; allowed: {allowed}"
    if kind == "dependentRequired":
        given = next(
            k for k, fields in error.validator_value.items() if k in value and set(fields) - set(value)
        )
        missing = sorted(set(error.validator_value[given]) - set(value))
        return f"with {given!r} it also needs {sorted(error.validator_value[given])}; missing {missing}"
    if kind == "not":
        return f"these fields exclude each other: {error.validator_value}"
    if kind == "enum":
        words = [v for v in error.validator_value if isinstance(v, str)]
        return f"unknown value {value!r}; use one of {words}"
    if kind == "pattern":
        return f"{value!r} does not match {error.validator_value!r}"
    return error.message


def check(doc: Document, schema: str, entries: str | None = None, error: type[ToolError] = DataError) -> None:
    """Raise ``error`` for the first place (in file order) that breaks ``schema``."""
    errors = list(_validator(schema).iter_errors(doc.data))
    if not errors:
        return
    first = min(errors, key=lambda e: (doc.line(tuple(e.absolute_path)), len(e.absolute_path)))
    where = tuple(first.absolute_path)
    field = _field(first)
    hint = first.schema.get("description")
    if hint and first.validator not in ("required", "additionalProperties", "enum"):
        problem = f"{first.instance!r}: {hint}"  # the field's own words, not its regex
    else:
        problem = _problem(first)
    raise error(f"{doc.place(where, entries)}: {field + ': ' if field else ''}{problem}.")


def load(path: Path, schema: str, entries: str | None = None, error: type[ToolError] = DataError) -> Document:
    """Read a YAML (or .json) data file and check it against its schema; a problem
    raises ``error`` (the caller's own ToolError class), naming file, line and entry."""
    try:
        doc = read_json(path) if Path(path).suffix == ".json" else read_yaml(path)
    except DataError as err:
        raise error(str(err)) from None
    check(doc, schema, entries, error)
    return doc
