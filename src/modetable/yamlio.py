"""Safe, position-aware YAML loading.

Every mapping and sequence remembers the file, line and column it came from,
so any later error can name its place. Duplicate keys are errors (PyYAML keeps
the last one silently), and documents whose aliases would expand beyond a
bound are refused, so a "billion laughs" file costs nothing downstream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

from modetable.errors import Location, ModetableError

# Limits: a clear error rather than an exhausted machine (see docs/limits.md).
MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_EXPANDED_NODES = 2_000_000
MAX_DEPTH = 200

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE_TAG = "tag:yaml.org,2002:merge"


class YamlMap(dict):
    """A mapping that remembers where it and each of its keys and values stood."""

    __slots__ = ("col", "file", "key_pos", "line", "value_pos")

    def where(self, key: Any = None) -> Location:
        """The location of the value under `key`, or of the mapping itself."""
        pos = self.value_pos.get(key) if key is not None else None
        if pos is None:
            return Location(self.file, self.line, self.col)
        return Location(self.file, *pos)

    def key_where(self, key: Any) -> Location:
        pos = self.key_pos.get(key)
        if pos is None:
            return Location(self.file, self.line, self.col)
        return Location(self.file, *pos)


class YamlList(list):
    """A sequence that remembers where it and each of its items stood."""

    __slots__ = ("col", "file", "item_pos", "line")

    def where(self, index: int | None = None) -> Location:
        if index is None or not 0 <= index < len(self.item_pos):
            return Location(self.file, self.line, self.col)
        return Location(self.file, *self.item_pos[index])


def where(node: Any, key: Any = None, fallback: Location | None = None) -> Location:
    """The location of `node[key]` (or of `node`) when the node knows it."""
    if isinstance(node, YamlMap | YamlList):
        return node.where(key)
    return fallback if fallback is not None else Location("<input>")


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _PositionLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """A safe loader whose mappings and sequences carry their positions."""

    file_name = "<input>"

    def construct_yaml_map(self, node: yaml.MappingNode) -> Iterator[YamlMap]:
        mapping = YamlMap()
        mapping.file = self.file_name
        mapping.line, mapping.col = _mark(node)
        mapping.key_pos = {}
        mapping.value_pos = {}
        yield mapping
        self._check_duplicates(node)
        self.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise ModetableError(
                    "a mapping key must be a scalar", Location(self.file_name, *_mark(key_node))
                ) from None
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.key_pos[key] = _mark(key_node)
            mapping.value_pos[key] = _mark(value_node)

    def _check_duplicates(self, node: yaml.MappingNode) -> None:
        seen: dict[Any, tuple[int, int]] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG or not isinstance(key_node, yaml.ScalarNode):
                continue
            key = self.construct_object(key_node)
            if key in seen:
                line, _col = seen[key]
                raise ModetableError(
                    f"duplicate key {key!r} (first at line {line})",
                    Location(self.file_name, *_mark(key_node)),
                )
            seen[key] = _mark(key_node)

    def construct_yaml_seq(self, node: yaml.SequenceNode) -> Iterator[YamlList]:
        items = YamlList()
        items.file = self.file_name
        items.line, items.col = _mark(node)
        items.item_pos = [_mark(child) for child in node.value]
        yield items
        items.extend(self.construct_object(child, deep=True) for child in node.value)


_PositionLoader.add_constructor("tag:yaml.org,2002:map", _PositionLoader.construct_yaml_map)
_PositionLoader.add_constructor("tag:yaml.org,2002:seq", _PositionLoader.construct_yaml_seq)
# Kubernetes decodes YAML through JSON, so dates stay strings.
_PositionLoader.add_constructor("tag:yaml.org,2002:timestamp", _PositionLoader.construct_yaml_str)


def decode(data: bytes, file_name: str) -> str:
    """UTF-8 text of `data`, or an error naming the first bad byte's place."""
    if len(data) > MAX_INPUT_BYTES:
        raise ModetableError(
            f"input is {len(data)} bytes, more than the limit of {MAX_INPUT_BYTES} bytes",
            Location(file_name),
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise ModetableError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded",
            Location(file_name, line, col),
        ) from None


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
        raise ModetableError(f"invalid YAML: {problem}", where) from None
    except yaml.YAMLError as exc:
        raise ModetableError(f"invalid YAML: {exc}", Location(file_name)) from None
    except RecursionError:
        raise ModetableError(
            f"YAML nested deeper than the limit of {MAX_DEPTH}", Location(file_name)
        ) from None
    finally:
        loader.dispose()
    return documents


def _check_expansion(value: Any, start: Location) -> None:
    """Refuse documents whose aliases expand past the bound, or that nest too deep.

    Sizes are memoised by identity, so shared (aliased) nodes cost one visit
    each however often they are referenced.
    """
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: Any, depth: int) -> int:
        if not isinstance(node, dict | list):
            return 1
        key = id(node)
        known = sizes.get(key)
        if known is not None:
            return known
        if depth > MAX_DEPTH:
            raise ModetableError(f"YAML nested deeper than the limit of {MAX_DEPTH}", start)
        if key in active:
            raise ModetableError("YAML alias refers to itself", start)
        active.add(key)
        children = node.values() if isinstance(node, dict) else node
        total = 1
        for child in children:
            total += size(child, depth + 1)
            if total > MAX_EXPANDED_NODES:
                raise ModetableError(
                    f"YAML expands to more than {MAX_EXPANDED_NODES} nodes "
                    "(aliases repeated too often)",
                    start,
                )
        active.discard(key)
        sizes[key] = total
        return total

    size(value, 0)
