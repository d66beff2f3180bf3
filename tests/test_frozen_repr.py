"""`settled.frozen` is `attrs.frozen` with one shared `__repr__` (issue 27: attrs
compiles each class's own, a third of making a class): it writes what attrs'
own writes, character for character, and changes nothing else."""

from __future__ import annotations

import attrs
import pytest

from modetable.settled import frozen


def _pair():
    """The same class made by attrs and by `frozen`: a field of each kind attrs'
    repr treats apart (shown, left out, written by a callable, not in __init__)."""

    def make(decorate):
        @decorate
        class Value:
            name: str
            items: tuple = ()
            hidden: int = attrs.field(default=0, repr=False)
            shown: int = attrs.field(default=3, repr=lambda v: f"<{v}>")
            later: int = attrs.field(init=False, default=5)

        return Value

    return make(attrs.frozen), make(frozen)


def test_repr_is_attrs_own():
    by_attrs, by_frozen = _pair()
    for args in [("a",), ("b", (1, "x"), 2, 4), ("c", (by_attrs("d"), by_frozen("e")))]:
        assert repr(by_frozen(*args)) == repr(by_attrs(*args)).replace("by_attrs", "by_frozen")
    assert repr(by_frozen("a")) == "Value(name='a', items=(), shown=<3>, later=5)"


def test_a_value_met_again_is_written_as_dots():
    by_attrs, by_frozen = _pair()
    for cls in (by_attrs, by_frozen):
        inner: list = []
        value = cls("a", inner)
        inner.append(value)
        assert repr(value) == "Value(name='a', items=[...], shown=<3>, later=5)"


def test_equality_hash_and_frozenness_are_attrs_own():
    by_attrs, by_frozen = _pair()
    value = by_frozen("a", (1,))
    assert value == by_frozen("a", (1,)) and hash(value) == hash(by_frozen("a", (1,)))
    assert value != by_frozen("b")
    assert by_frozen.__slots__ == by_attrs.__slots__
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.name = "b"  # type: ignore[misc]


def test_options_and_an_own_repr_are_kept():
    @frozen(eq=False)
    class ByIdentity:
        name: str

    assert ByIdentity("a") != ByIdentity("a")
    assert repr(ByIdentity("a")) == "ByIdentity(name='a')"

    @frozen
    class Own:
        name: str

        def __repr__(self) -> str:
            return "own"

    assert repr(Own("a")) == "own"
