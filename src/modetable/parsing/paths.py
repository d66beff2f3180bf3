"""Field paths from the rules (`spec.{isvc_field}.annotations[{annotation_key}]`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from modetable.errors import Location
from modetable.parsing.yamlio import YamlMap, where
from modetable.text.templates import fill

__all__ = ["MISSING", "Segments", "assign", "expand", "lookup", "render", "split", "value_location"]

Segments = tuple[str, ...]
MISSING: Any = object()


@lru_cache(maxsize=4096)
def split(path: str) -> Segments:
    """`a.b[c.d]` → (`a`, `b`, `c.d`): dots separate fields, brackets hold a key verbatim."""
    segments: list[str] = []
    current = ""
    index = 0
    while index < len(path):
        char = path[index]
        if char == "[":
            end = path.index("]", index)
            if current:
                segments.append(current)
                current = ""
            segments.append(path[index + 1 : end])
            index = end + 1
            continue
        if char == ".":
            if current:
                segments.append(current)
            current = ""
        else:
            current += char
        index += 1
    if current:
        segments.append(current)
    return tuple(segments)


def expand(template: str, values: Mapping[str, object]) -> Segments:
    return split(fill(template, values))


@lru_cache(maxsize=4096)
def render(segments: Segments) -> str:
    """The path as people write it: `spec.engine.annotations[ome.io/deploymentMode]`."""
    text = ""
    for segment in segments:
        if any(c in segment for c in "./") or not segment:
            text += f"[{segment}]"
        else:
            text += f".{segment}" if text else segment
    return text


def lookup(obj: Any, segments: Segments) -> Any:
    """The value at `segments` in nested mappings, or MISSING."""
    node = obj
    for segment in segments:
        if not isinstance(node, dict):
            return MISSING
        node = node.get(segment, MISSING)
        if node is MISSING:
            return MISSING
    return node


def _parent_and_key(obj: Any, segments: Segments) -> tuple[Any, str] | None:
    """The mapping holding the last segment, and that key (for positions)."""
    node = lookup(obj, segments[:-1]) if len(segments) > 1 else obj
    if isinstance(node, dict) and segments:
        return node, segments[-1]
    return None


def assign(obj: dict[str, Any], segments: Segments, value: Any) -> dict[str, Any]:
    """A copy of `obj` with `value` at `segments`; the mappings along the way are copied."""
    if not segments:
        return value
    head, rest = segments[0], segments[1:]
    copy = dict(obj)
    child = copy.get(head)
    copy[head] = assign(child if isinstance(child, dict) else {}, rest, value)
    return copy


def value_location(
    obj: Any, segments: Segments, fallback: Location, *, key: bool = False
) -> Location | None:
    """Where the value at `segments` is written (`fallback` when its holder kept no
    position); with `key`, where its key is (a `leader` counts by being there,
    so its own line is the place, not its first field's). None when no holder."""
    found = _parent_and_key(obj, segments)
    if found is None:
        return None
    node, name = found
    if key and isinstance(node, YamlMap):
        return node.key_where(name)
    return where(node, name, fallback)
