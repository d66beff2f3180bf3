"""Kubernetes objects already in memory, read as files are.

A program hands modetable the objects it holds (what `json.load`,
`yaml.safe_load_all` or the Kubernetes client's custom-objects API give: dicts,
lists, strings, numbers, booleans, None). They are copied into the trees the
YAML loader builds, under the same rules: JSON's values only (a date or time,
as PyYAML reads an unquoted timestamp, becomes its ISO 8601 text, as
modetable's loader keeps it text; a key that is not a string, a lone
surrogate, NaN and infinity are refused, as JSON holds none), within the same
limits of nodes and depth, a value that holds itself refused. With no file, a
place is the object (its kind, namespace and name, and where it stood among
the objects given: `objects[3]`, `objects[0].items[5]` in a List) and the path
of the field inside it (`Location.field`: `spec.model.name`).

The copy is modetable's own: changing the caller's objects afterwards changes
nothing modetable holds.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.manifests import DEFAULT_NAMESPACE
from modetable.inputs.sources import is_list
from modetable.parsing.yamlio import MAX_DEPTH, MAX_NODES, YamlList, YamlMap, describe, non_finite
from modetable.text.shown import escape

__all__ = ["ObjectList", "ObjectMap", "object_documents"]

# A number longer than this is refused, as a file's is (quoted, it is a string).
_MAX_NUMBER_DIGITS = 100
_SCALARS = (str, bool, int, float, type(None))
_HINT = (
    "pass objects as json.load or yaml.safe_load give them "
    "(a Kubernetes client model: ApiClient().sanitize_for_serialization(obj))"
)


class ObjectMap(YamlMap):
    """A mapping of an object given in memory: its places are field paths."""

    __slots__ = ("_path",)

    def where(self, key: Any = None) -> Location:
        if key is None or key not in self:
            return Location(self.file, field=self._path or None)
        return Location(self.file, field=_child(self._path, key))

    def key_where(self, key: Any) -> Location:
        return self.where(key)


class ObjectList(YamlList):
    """A list of an object given in memory: its places are field paths."""

    __slots__ = ("_path",)

    def where(self, index: int | None = None) -> Location:
        if index is None or not 0 <= index < len(self):
            return Location(self.file, field=self._path or None)
        return Location(self.file, field=_child(self._path, index))


def _child(path: str, key: Any) -> str:
    """`spec.containers[0]`, `metadata.annotations[ome.io/deploymentMode]`: the
    notation of the rules' paths, a key that is not a plain word in brackets."""
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    # A key may hold a newline or a terminal escape: a place is one line.
    text = escape(str(key))
    if text and all(c.isalnum() or c in "_-" for c in text):
        return f"{path}.{text}" if path else text
    return f"{path}[{text}]"


def object_documents(
    objects: Iterable[tuple[str, Any]], list_kind: str, scopes: Mapping[str, str]
) -> Iterator[tuple[Any, Location]]:
    """Each object copied as the YAML loader would have built it, with where it
    stands (`objects` pairs each with where it stood among those given:
    `objects[3]`); a List's items one by one (`list_kind`, as in files); None
    (an empty YAML document) skipped. `scopes` (kind → `namespace` or
    `cluster`) names an object left without a namespace as the cluster will."""
    budget = _Budget()
    for origin, obj in objects:
        if obj is None:
            continue
        if isinstance(obj, Mapping) and is_list(obj, list_kind):
            items = obj.get("items") or []
            if not isinstance(items, list | tuple):
                label = _label(obj, origin, scopes)
                raise ModetableError(
                    "items of a List must be a list",
                    Location(label, field="items"),
                    code=ErrorCode.WRONG_TYPE,
                )
            for number, item in enumerate(items):
                yield _document(item, f"{origin}.items[{number}]", scopes, budget)
        else:
            yield _document(obj, origin, scopes, budget)


def _document(
    obj: Any, origin: str, scopes: Mapping[str, str], budget: _Budget
) -> tuple[Any, Location]:
    label = _label(obj, origin, scopes)
    return _copy(obj, label, "", 0, budget, set()), Location(label)


def _shown(value: Any) -> str | None:
    """`value` when it can stand in a one-line place: a non-empty plain name."""
    if isinstance(value, str) and value and all(c.isprintable() and not c.isspace() for c in value):
        return value
    return None


def _label(obj: Any, origin: str, scopes: Mapping[str, str]) -> str:
    """`InferenceService team-a/llama (objects[3])`: the object by its kind,
    namespace and name as the cluster will hold it, and where it stood."""
    if not isinstance(obj, Mapping):
        return origin
    kind = _shown(obj.get("kind"))
    metadata = obj.get("metadata")
    metadata = metadata if isinstance(metadata, Mapping) else {}
    name = _shown(metadata.get("name"))
    if name is None:
        return f"{kind} ({origin})" if kind else origin
    scope = scopes.get(kind or "")
    namespace = _shown(metadata.get("namespace"))
    if scope == "namespace":
        namespace = namespace or DEFAULT_NAMESPACE
    elif scope == "cluster":
        namespace = None
    ref = f"{namespace}/{name}" if namespace else name
    return f"{kind or 'object'} {ref} ({origin})"


class _Budget:
    """Nodes built so far, for all the objects of one call together."""

    def __init__(self) -> None:
        self.built = 0

    def charge(self, count: int, at: Location) -> None:
        self.built += count
        if self.built > MAX_NODES:
            raise ModetableError(f"the objects hold more than {MAX_NODES} nodes", at)


def _copy(value: Any, label: str, path: str, depth: int, budget: _Budget, active: set[int]) -> Any:
    """`value` as the YAML loader builds it: mappings and lists that know their
    places, JSON's scalars as they are; anything else refused at its place."""
    at = Location(label, field=path or None)
    if isinstance(value, _SCALARS):
        return _scalar(value, at)
    if isinstance(value, datetime.date):
        # PyYAML reads an unquoted timestamp as one; modetable's own loader, as
        # Kubernetes does, keeps it text.
        return value.isoformat()
    if not isinstance(value, Mapping | list | tuple):
        raise ModetableError(f"{describe(value)} is not a JSON value: {_HINT}", at)
    if depth >= MAX_DEPTH:
        raise ModetableError(f"the object is nested deeper than the limit of {MAX_DEPTH}", at)
    key = id(value)
    if key in active:
        raise ModetableError("the object holds itself (a mapping or list inside itself)", at)
    active.add(key)
    budget.charge(len(value) + 1, at)
    node: YamlMap | YamlList
    if isinstance(value, Mapping):
        node = ObjectMap()
        for name, item in value.items():
            key = _key(name, at)
            node[key] = _copy(item, label, _child(path, key), depth + 1, budget, active)
    else:
        node = ObjectList(
            _copy(item, label, _child(path, index), depth + 1, budget, active)
            for index, item in enumerate(value)
        )
    node.file = label
    node._path = path
    active.discard(key)
    return node


def _key(name: Any, at: Location) -> str:
    """A mapping's key: a string, as JSON's (and so Kubernetes') keys are;
    json.dumps would write None, True or 1 as a string, PyYAML keeps them."""
    if not isinstance(name, str):
        raise ModetableError(
            f"a mapping key must be a string, not {describe(name)}", at, code=ErrorCode.WRONG_TYPE
        )
    _unicode(name, "a key", at)
    return name


def _unicode(text: str, what: str, at: Location) -> None:
    """`text` holds no lone surrogate (no UTF-8, so no file, can hold one)."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ModetableError(
            f"{what} holds U+{ord(text[exc.start]):04X}, which is not a character "
            "(a lone surrogate)",
            at,
        ) from None


def _scalar(value: Any, at: Location) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        raise ModetableError(non_finite(describe(value)), at)
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > 3 * _MAX_NUMBER_DIGITS:
            raise ModetableError(
                f"a number of more than {_MAX_NUMBER_DIGITS} digits is longer than the limit; "
                "make it a string",
                at,
            )
    elif isinstance(value, str):
        _unicode(value, "the string", at)
    return value
