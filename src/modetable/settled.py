"""Frozen classes: `frozen`, attrs' frozen classes with one shared `__repr__`,
and `settled`, whose cached properties are filled when they are made.

`frozen` is `attrs.frozen` (every option as attrs takes it) except for where
`__repr__` comes from: attrs writes each class's own as source and compiles it
when the class is made, a third of what making a class costs and, over the
180 classes a cold command makes, about 25 ms of it (docs/performance.md).
Every class of `frozen` shares `_repr` instead, which writes what attrs' would,
character for character: the class's name (its `__qualname__` after any
`<locals>.`), then each field shown (`repr=False` leaves one out, a callable
`repr=` writes it), a value seen again while it is being written as `...`.
A class with its own `__repr__`, or made with `repr=False`, keeps attrs' way.

A value shared across threads (a `Policy`, a `Cluster`: the Python API says
they may be) must not fill anything on first use: two threads would compute
the same property at once and each keep its own. `settled` computes every
`functools.cached_property` of the class at construction, so the object never
changes afterwards, and a property added later is filled without a list to keep.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cached_property
from typing import Any, TypeVar, dataclass_transform, overload

import attrs

__all__ = ["frozen", "settled"]

_Class = TypeVar("_Class", bound=type)

# The values being written by `_repr` in this thread (by id), as attrs keeps them.
_writing = threading.local()


def _repr(self: Any) -> str:
    """What attrs' generated `__repr__` writes for `self`."""
    try:
        seen = _writing.seen
    except AttributeError:
        seen = _writing.seen = set()
    if id(self) in seen:
        return "..."
    seen.add(id(self))
    try:
        cls = self.__class__
        shown = []
        for field in cls.__attrs_attrs__:
            if field.repr is False:
                continue
            value = (
                getattr(self, field.name)
                if field.init
                else getattr(self, field.name, attrs.NOTHING)
            )
            text = repr(value) if field.repr is True else f"{field.repr(value)}"
            shown.append(f"{field.name}={text}")
        return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({', '.join(shown)})"
    finally:
        seen.remove(id(self))


@overload
def frozen(cls: _Class, /) -> _Class: ...
@overload
def frozen(**options: Any) -> Callable[[_Class], _Class]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def frozen(cls: Any = None, /, **options: Any) -> Any:
    """`@attrs.frozen` or `@attrs.frozen(...)`, its `__repr__` the shared `_repr`."""

    def make(cls: Any) -> Any:
        if "__repr__" in vars(cls) or "repr" in options:
            return attrs.frozen(cls, **options)
        made = attrs.frozen(cls, repr=False, **options)
        made.__repr__ = _repr
        return made

    return make if cls is None else make(cls)


def settled(cls: _Class) -> _Class:
    """Fill `cls`'s cached properties in `__attrs_post_init__`; apply it beneath
    `@attrs.frozen`, which turns them into slots after this has seen them."""
    names = tuple(name for name, value in vars(cls).items() if isinstance(value, cached_property))
    before = vars(cls).get("__attrs_post_init__")

    def __attrs_post_init__(self: Any) -> None:
        if before is not None:
            before(self)
        for name in names:
            getattr(self, name)

    cls.__attrs_post_init__ = __attrs_post_init__  # type: ignore[attr-defined]
    return cls
