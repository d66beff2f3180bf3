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
Likewise `__eq__`, `__ne__` and `__hash__` are attrs' own, source and all,
but written and compiled when a value of the class is first compared or
hashed (`_compare_later`): a cold command never compares most of the classes
it makes (the rules come unpickled), and each class's compile is most of what
making it costs. A class given an equality or hash option, or with its own
comparison methods, keeps attrs' way.

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


# Options and methods of a class's own that make `frozen` leave equality and
# the hash to attrs.
_COMPARED = frozenset(("eq", "order", "hash", "unsafe_hash", "cache_hash", "cmp"))
_COMPARING = frozenset(("__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__"))


def _compare_later(cls: Any) -> None:
    """Give `cls` attrs' `__eq__`, `__ne__` and `__hash__`, written and compiled
    when one of them is first called: until then, each is a stand-in that
    makes all three (the source attrs writes, field for field) and puts them on
    the class. Most classes of a cold command are never compared or hashed
    (the rules are unpickled, not made), so they never pay for the compile."""

    def made() -> tuple[Any, Any]:
        eq, hash_ = _methods(cls)
        cls.__eq__ = eq
        cls.__ne__ = _ne
        cls.__hash__ = hash_
        return eq, hash_

    def __eq__(self: Any, other: Any) -> Any:
        return made()[0](self, other)

    def __hash__(self: Any) -> int:
        return made()[1](self)

    cls.__eq__ = __eq__
    cls.__ne__ = _ne
    cls.__hash__ = __hash__


def _ne(self: Any, other: Any) -> Any:
    """attrs' `__ne__`: the negation of `__eq__`, NotImplemented passed on."""
    result = self.__eq__(other)
    if result is NotImplemented:
        return NotImplemented
    return not result


def _methods(cls: Any) -> tuple[Any, Any]:
    """`cls`'s `__eq__` and `__hash__` as attrs writes them for a frozen class
    (attrs' `_make_eq_script` and `_make_hash_script`): the fields compared in
    order, each through its `eq_key`; the hash of a tuple of a constant of the
    class and the hashed fields."""
    fields = cls.__attrs_attrs__
    where = f"{cls.__module__}.{getattr(cls, '__qualname__', cls.__name__)}"
    namespace: dict[str, Any] = {}

    def read(field: Any, side: str) -> str:
        if field.eq_key:
            namespace[f"_{field.name}_key"] = field.eq_key
            return f"_{field.name}_key({side}.{field.name})"
        return f"{side}.{field.name}"

    compared = [f for f in fields if f.eq]
    test = " and ".join(f"{read(f, 'self')} == {read(f, 'other')}" for f in compared) or "True"
    hashed = [f for f in fields if f.hash is True or (f.hash is None and f.eq is True)]
    constant = hash(f"<attrs generated hash {where}>")
    items = "".join(f" {read(f, 'self')}," for f in hashed)
    script = (
        "def __eq__(self, other):\n"
        "    if other.__class__ is not self.__class__:\n"
        "        return NotImplemented\n"
        f"    return ({test})\n"
        "def __hash__(self):\n"
        f"    return hash(({constant},{items}))\n"
    )
    exec(compile(script, f"<modetable frozen methods {where}>", "exec"), namespace)
    eq, hash_ = namespace["__eq__"], namespace["__hash__"]
    for method in (eq, hash_):
        method.__module__ = cls.__module__
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    return eq, hash_


@overload
def frozen(cls: _Class, /) -> _Class: ...
@overload
def frozen(**options: Any) -> Callable[[_Class], _Class]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def frozen(cls: Any = None, /, **options: Any) -> Any:
    """`@attrs.frozen` or `@attrs.frozen(...)`, its `__repr__` the shared `_repr`,
    its equality and hash compiled when first used."""

    def make(cls: Any) -> Any:
        own = vars(cls)
        if "__repr__" in own or "repr" in options:
            return attrs.frozen(cls, **options)
        if _COMPARED.isdisjoint(options) and _COMPARING.isdisjoint(own):
            made = attrs.frozen(cls, repr=False, eq=False, **options)
            _compare_later(made)
        else:
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
