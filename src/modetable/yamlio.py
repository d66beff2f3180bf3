"""Safe, position-aware YAML loading, with limits.

Every mapping and sequence remembers the file, line and column it came from,
so any later error can name its place. Only the JSON-compatible part of YAML
is accepted (mappings, lists, strings, numbers, booleans, null), as Kubernetes
reads it; nothing is ever constructed from a tag. Duplicate keys are errors
(PyYAML keeps the last one silently). Every input is bounded: its bytes, the
nodes it builds (merge keys `<<` can build quadratically many), the nodes its
aliases expand to (a "billion laughs" file) and its depth, each a one-line
error rather than an exhausted machine (docs/limits.md lists them).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, BinaryIO

import yaml

from modetable.errors import ErrorCode, Location, ModetableError

__all__ = [
    "MAX_DEPTH",
    "MAX_INPUT_BYTES",
    "MAX_NODES",
    "YamlList",
    "YamlMap",
    "check_size",
    "decode",
    "describe",
    "load_documents",
    "read_limited",
    "where",
]

# Limits (docs/limits.md). A real manifest averages ~23 bytes per node, so an
# input at the byte limit holds about 1.5 million nodes; the node limits sit
# above that and only stop inputs that build far more than they spell out.
MAX_INPUT_BYTES = 32 * 1024 * 1024
MAX_NODES = 4_000_000
MAX_DEPTH = 200
_SELF_ALIAS = "YAML alias refers to a node that holds it"

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_YAML_TAG = "tag:yaml.org,2002:"
_MERGE_TAG = _YAML_TAG + "merge"
# Tags PyYAML's safe loader knows but JSON (and so Kubernetes) has no value for.
_REFUSED_TAGS = tuple(_YAML_TAG + name for name in ("binary", "set", "omap", "pairs"))

# Positions are packed into one int each (line in the high bits), which keeps
# a loaded manifest about a third the size tuples would make it.
_SHIFT = 32
_MASK = (1 << _SHIFT) - 1


def _pack(line: int, col: int) -> int:
    return line << _SHIFT | col


def _unpack(packed: int) -> tuple[int, int]:
    return packed >> _SHIFT, packed & _MASK


class YamlMap(dict):
    """A mapping that remembers where it and each of its keys and values stood."""

    __slots__ = ("_positions", "col", "file", "line")

    def where(self, key: Any = None) -> Location:
        """The location of the value under `key`, or of the mapping itself."""
        packed = self._positions.get(key) if key is not None else None
        if packed is None:
            return Location(self.file, self.line, self.col)
        return Location(self.file, *_unpack(packed & ((1 << 2 * _SHIFT) - 1)))

    def key_where(self, key: Any) -> Location:
        """The location of `key` itself, or of the mapping when it has no such key."""
        packed = self._positions.get(key)
        if packed is None:
            return Location(self.file, self.line, self.col)
        return Location(self.file, *_unpack(packed >> 2 * _SHIFT))


class YamlList(list):
    """A sequence that remembers where it and each of its items stood."""

    __slots__ = ("_positions", "col", "file", "line")

    def where(self, index: int | None = None) -> Location:
        if index is None or not 0 <= index < len(self._positions):
            return Location(self.file, self.line, self.col)
        return Location(self.file, *_unpack(self._positions[index]))


def where(node: Any, key: Any = None, fallback: Location | None = None) -> Location:
    """The location of `node[key]` (or of `node`) when the node knows it."""
    if isinstance(node, YamlMap | YamlList):
        return node.where(key)
    return fallback if fallback is not None else Location("<input>")


def describe(value: Any) -> str:
    """A YAML value as an error message names it: `a list`, `the number 1`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    return f"a {type(value).__name__}"


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _PositionLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """A safe loader whose mappings and sequences carry their positions, and
    which counts the nodes it builds."""

    file_name = "<input>"
    built = 0
    depth = 0

    @contextlib.contextmanager
    def _nested(self, node: yaml.Node) -> Iterator[None]:
        """One level deeper while the children of `node` are built."""
        if self.depth >= MAX_DEPTH:
            raise ModetableError(
                f"YAML nested deeper than the limit of {MAX_DEPTH}",
                Location(self.file_name, *_mark(node)),
            )
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def _charge(self, count: int, node: yaml.Node) -> None:
        """Count `count` more nodes built; refuse the input past the limit."""
        self.built += count
        if self.built > MAX_NODES:
            raise ModetableError(
                f"YAML builds more than {MAX_NODES} nodes "
                "(a file this large, or merge keys (<<) repeated too often)",
                Location(self.file_name, *_mark(node)),
            )

    def construct_yaml_map(self, node: yaml.MappingNode) -> Iterator[YamlMap]:
        mapping = YamlMap()
        mapping.file = self.file_name
        mapping.line, mapping.col = _mark(node)
        positions: dict[Any, int] = {}
        mapping._positions = positions
        yield mapping
        self._check_duplicates(node)
        self.flatten_mapping(node)
        self._charge(len(node.value) + 1, node)
        with self._nested(node):
            for key_node, value_node in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    hash(key)
                except TypeError:
                    raise ModetableError(
                        "a mapping key must be a string, not a list or mapping",
                        Location(self.file_name, *_mark(key_node)),
                    ) from None
                mapping[key] = self.construct_object(value_node, deep=True)
                positions[key] = _pack(*_mark(key_node)) << 2 * _SHIFT | _pack(*_mark(value_node))

    def _check_duplicates(self, node: yaml.MappingNode) -> None:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG or not isinstance(key_node, yaml.ScalarNode):
                continue
            key = self.construct_object(key_node)
            if key in seen:
                raise ModetableError(
                    f"duplicate key {key!r} (first at line {seen[key]})",
                    Location(self.file_name, *_mark(key_node)),
                    code=ErrorCode.DUPLICATE_KEY,
                )
            seen[key] = _mark(key_node)[0]

    def construct_yaml_seq(self, node: yaml.SequenceNode) -> Iterator[YamlList]:
        items = YamlList()
        items.file = self.file_name
        items.line, items.col = _mark(node)
        items._positions = [_pack(*_mark(child)) for child in node.value]
        yield items
        self._charge(len(node.value) + 1, node)
        with self._nested(node):
            items.extend(self.construct_object(child, deep=True) for child in node.value)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        try:
            return super().construct_yaml_int(node)
        except ValueError:
            # Python refuses to convert integers of more than 4300 digits.
            raise ModetableError(
                f"integer of {len(node.value)} digits is too long; quote it to make it a string",
                Location(self.file_name, *_mark(node)),
            ) from None

    def construct_refused(self, node: yaml.Node) -> None:
        """Any tag beyond JSON's values: nothing is ever constructed from a tag."""
        name = (
            "!!" + node.tag.removeprefix(_YAML_TAG) if node.tag.startswith(_YAML_TAG) else node.tag
        )
        raise ModetableError(
            f"the YAML tag {name} is not supported: modetable reads only mappings, lists, "
            "strings, numbers, booleans and null",
            Location(self.file_name, *_mark(node)),
        )


_PositionLoader.add_constructor("tag:yaml.org,2002:map", _PositionLoader.construct_yaml_map)
_PositionLoader.add_constructor("tag:yaml.org,2002:seq", _PositionLoader.construct_yaml_seq)
_PositionLoader.add_constructor("tag:yaml.org,2002:int", _PositionLoader.construct_yaml_int)
# Kubernetes decodes YAML through JSON, so dates stay strings.
_PositionLoader.add_constructor("tag:yaml.org,2002:timestamp", _PositionLoader.construct_yaml_str)
for _tag in _REFUSED_TAGS:
    _PositionLoader.add_constructor(_tag, _PositionLoader.construct_refused)
_PositionLoader.add_constructor(None, _PositionLoader.construct_refused)


def check_size(size: int, file_name: str) -> None:
    """Refuse an input of `size` bytes when it is over the limit."""
    if size > MAX_INPUT_BYTES:
        raise ModetableError(
            f"input is {size} bytes, more than the limit of {MAX_INPUT_BYTES} bytes "
            "(split it into several files)",
            Location(file_name),
        )


def read_limited(stream: BinaryIO, file_name: str) -> bytes:
    """A stream's bytes, refused once they pass the limit (pipes have no size)."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise ModetableError(
            f"input is more than the limit of {MAX_INPUT_BYTES} bytes "
            "(split it into several files)",
            Location(file_name),
        )
    return data


_BOMS = {b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}


def decode(data: bytes, file_name: str) -> str:
    """UTF-8 text of `data`, or an error naming the first bad byte's place."""
    check_size(len(data), file_name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        encoding = _BOMS.get(data[:2])
        hint = f" (the file is {encoding}; save it as UTF-8)" if encoding else ""
        raise ModetableError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded{hint}",
            Location(file_name, line, col),
        ) from None


def _reader_location(text: str, file_name: str, position: int) -> Location:
    before = text[:position]
    return Location(file_name, before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1)


def load_documents(text: str, file_name: str) -> list[tuple[Any, Location]]:
    """Every YAML document in `text`, each with where it begins.

    Empty documents (a lone `---`) are dropped.
    """
    loader = _PositionLoader(text)
    loader.file_name = file_name
    documents: list[tuple[Any, Location]] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            start = Location(file_name, *_mark(node))
            value = loader.construct_document(node)
            if value is None:
                continue
            _check_expansion(value, start)
            documents.append((value, start))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        where = Location(file_name, mark.line + 1, mark.column + 1) if mark else Location(file_name)
        if problem == "found unconstructable recursive node":
            raise ModetableError(_SELF_ALIAS, where) from None
        raise ModetableError(f"invalid YAML: {_one_line(problem)}", where) from None
    except yaml.reader.ReaderError as exc:
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ModetableError(
            f"invalid YAML: the control character U+{code:04X} is not allowed",
            _reader_location(text, file_name, exc.position),
        ) from None
    except yaml.YAMLError as exc:
        raise ModetableError(f"invalid YAML: {_one_line(str(exc))}", Location(file_name)) from None
    except RecursionError:
        raise ModetableError(
            f"YAML nested deeper than the limit of {MAX_DEPTH}", Location(file_name)
        ) from None
    finally:
        loader.dispose()
    return documents


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _check_expansion(value: Any, start: Location) -> None:
    """Refuse documents whose aliases expand past the node limit or nest too deep.

    Each node's size and height are memoised by identity, so a shared (aliased)
    node costs one visit however often it is referenced, and its height still
    counts at every depth it is referenced from.
    """
    known: dict[int, tuple[int, int]] = {}
    active: set[int] = set()

    def measure(node: Any, depth: int) -> tuple[int, int]:
        """(nodes, height) of `node`, reached at `depth`."""
        if not isinstance(node, dict | list):
            return 1, 0
        key = id(node)
        found = known.get(key)
        if found is None:
            if key in active:
                raise ModetableError(_SELF_ALIAS, start)
            active.add(key)
            total, height = 1, 0
            for child in node.values() if isinstance(node, dict) else node:
                size, below = measure(child, depth + 1)
                total += size
                height = max(height, below + 1)
                if total > MAX_NODES:
                    raise ModetableError(
                        f"YAML expands to more than {MAX_NODES} nodes (aliases repeated too often)",
                        start,
                    )
            active.discard(key)
            found = known[key] = (total, height)
        if depth + found[1] > MAX_DEPTH:
            raise ModetableError(f"YAML nested deeper than the limit of {MAX_DEPTH}", start)
        return found

    measure(value, 0)
