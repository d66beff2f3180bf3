"""Frozen classes whose cached properties are filled when they are made.

A value shared across threads (a `Policy`, a `Cluster`: the Python API says
they may be) must not fill anything on first use: two threads would compute
the same property at once and each keep its own. `settled` computes every
`functools.cached_property` of the class at construction, so the object never
changes afterwards, and a property added later is filled without a list to keep.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, TypeVar

__all__ = ["settled"]

_Class = TypeVar("_Class", bound=type)


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
