"""What a name in the rules file means, as markers on the model's types.

A field typed `Annotated[str, Defines("mode")]` defines a mode name; one typed
`Annotated[str, Ref("mode")]` must name a defined mode. Validation, the
analysis (UNUSED) and the JSON Schema read these markers from the types, so a
new section gets its references checked by typing its fields, with no list of
fields to keep anywhere else.
"""

from __future__ import annotations

import functools
import importlib
import sys
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

from modetable.settled import frozen

__all__ = [
    "Defines",
    "Params",
    "Ref",
    "Template",
    "Templates",
    "field_types",
    "resolved",
    "split_annotated",
    "yaml_key",
]

# What a message reference passes: fixed names, or names that depend on the
# mapping holding the reference (as written in the file).
Params = tuple[str, ...] | Callable[[Mapping[str, Any]], tuple[str, ...]]

_Class = TypeVar("_Class", bound=type)


@frozen
class Defines:
    """The value (or mapping key) defines a name of `kind`, unique in the file.

    `report_unused`: the analysis reports the name when nothing refers to it.
    """

    kind: str
    report_unused: bool = False


@frozen
class Ref:
    """The value (or mapping key) names something of `kind` defined elsewhere.

    `also`: words accepted besides the defined names (`none`, `-`).
    `params`: for a message, what the engine passes it at this reference; the
    message's own `params` must list exactly these.
    """

    kind: str
    also: tuple[str, ...] = ()
    params: Params | None = None


@frozen
class Template:
    """A `{name}` template whose placeholders come from `params`, or from the
    list in the sibling field `params_field` of the mapping holding it."""

    params: tuple[str, ...] = ()
    params_field: str | None = None


@frozen(eq=False)  # hashed by identity: type hints must be hashable
class Templates:
    """A mapping of templates the engine looks up by key: exactly these keys,
    each with the placeholders the engine fills."""

    params: Mapping[str, tuple[str, ...]]


_Marker = Defines | Ref | Template | Templates


@functools.cache
def split_annotated(type_: Any) -> tuple[Any, tuple[Any, ...]]:
    """(`T`, markers) of `Annotated[T, *markers]`, or (type_, ())."""
    if typing.get_origin(type_) is typing.Annotated:
        base, *extras = typing.get_args(type_)
        inner, more = split_annotated(base)
        return inner, (*more, *extras)
    return type_, ()


def field_types(cls: type) -> dict[str, Any]:
    """An attrs class's field types with their markers (cattrs resolves them too)."""
    return dict(_field_types(cls))  # a copy: the kept one is never changed


# Kept per class: resolving looks the module's `LATER` up and imports each of
# its names every time, and `rules diff` asks for each of thousands of values.
@functools.cache
def _field_types(cls: type) -> dict[str, Any]:
    return {field.name: field.type for field in attrs.fields(resolved(cls))}


def resolved(cls: _Class) -> _Class:
    """`cls` with its fields' types resolved (`attrs.resolve_types`), the classes
    its module imports only when asked (its `LATER`: name to module) included;
    cattrs reads the types so resolved."""
    later = getattr(sys.modules.get(cls.__module__), "LATER", None)
    names = {
        name: getattr(importlib.import_module(module), name)
        for name, module in (later or {}).items()
    }
    return attrs.resolve_types(cls, localns=names or None)


def yaml_key(field: attrs.Attribute) -> str:
    """The key a field is written under in the file (`metadata={"yaml_key": "from"}`)."""
    rename = field.metadata.get("yaml_key")
    return rename if isinstance(rename, str) else field.name
