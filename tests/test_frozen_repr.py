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


def _compared():
    """The same class made by attrs and by `frozen`: a field of each kind attrs'
    equality and hash treat apart (compared, left out, compared by a key, left
    out of the hash only)."""

    def make(decorate):
        @decorate
        class Value:
            name: str
            items: tuple = ()
            ignored: int = attrs.field(default=0, eq=False)
            word: str = attrs.field(default="x", eq=str.lower)
            unhashed: int = attrs.field(default=1, hash=False)

        return Value

    return make(attrs.frozen), make(frozen)


def test_equality_and_hash_are_written_as_attrs_writes_them():
    by_attrs, by_frozen = _compared()
    assert attrs.fields(by_frozen) == attrs.fields(by_attrs)
    cases = [("a",), ("a", (1, "x"), 3, "X", 4), ("a", (), 9, "x", 1), ("b",), ("a", (), 0, "y")]
    for left in cases:
        # attrs' hash: a constant of the class (its module and qualified name) and the fields
        assert hash(by_frozen(*left)) == hash(by_attrs(*left))
        for right in cases:
            assert (by_frozen(*left) == by_frozen(*right)) is (by_attrs(*left) == by_attrs(*right))
            assert (by_frozen(*left) != by_frozen(*right)) is (by_attrs(*left) != by_attrs(*right))
    assert by_frozen("a").__eq__(by_attrs("a")) is NotImplemented
    nan = float("nan")
    assert (by_frozen("a", (nan,)) == by_frozen("a", (nan,))) is (
        by_attrs("a", (nan,)) == by_attrs("a", (nan,))
    )


def test_equality_is_compiled_when_first_used():
    """Until a value is compared or hashed its class holds stand-ins, which
    put attrs' methods on the class at the first call (a cold command never
    compares most of its classes' values)."""
    _by_attrs, by_frozen = _compared()
    stand_in = by_frozen.__hash__
    assert hash(by_frozen("a")) == hash(by_frozen("a"))
    assert by_frozen.__hash__ is not stand_in
    assert by_frozen.__eq__.__qualname__.endswith("Value.__eq__")
    assert {by_frozen("a"), by_frozen("a", (), 5)} == {by_frozen("a")}


def test_a_subclass_compares_its_own_fields():
    @frozen
    class Base:
        name: str

    @frozen
    class Derived(Base):
        extra: int = 0

    assert Derived("a", 1) != Derived("a", 2)
    assert Derived("a", 1) == Derived("a", 1)
    assert Base("a") != Derived("a")
    assert hash(Derived("a", 1)) == hash(Derived("a", 1))
