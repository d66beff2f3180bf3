"""The `fields` checks: tests on the InferenceService's fields, each keyed by
the word the rules use (`is:`), and the values a case passes its message.

A field reads as Go reads the typed object: absent and null are nil; a string
field absent reads as "" where the test or message wants a string. A `*`
segment of a path is every item of a list; a test on it holds when it holds
for any item.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from modetable import paths
from modetable.manifests import Manifest
from modetable.rules.model import CheckCase, CheckValue, FieldTest
from modetable.rules.policy import Policy
from modetable.templates import fill
from modetable.versions import in_force

__all__ = [
    "EXPECTS",
    "TESTS",
    "Reader",
    "all_hold",
    "case_values",
    "check_test_fields",
    "fields_read",
    "holds",
    "read_fields",
]

_ANY_ITEM = "*"
_ABSENT: Any = paths.MISSING


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any) -> str:
    """A value as Go's zero-valued string reads it: absent or null is ""."""
    return "" if value is _ABSENT or value is None else value if isinstance(value, str) else ""


def _same(value: Any, to: Any) -> bool:
    """Equal, and of the same type (YAML's 0 is not false)."""
    return value is not _ABSENT and type(value) is type(to) and value == to


# Each test word with what it means: whether `value` (_ABSENT when the field is
# not there; None when it is null) passes, given the test and what else it reads.
_Test = Callable[[Any, FieldTest, "Reader"], bool]
TESTS: dict[str, _Test] = {
    "set": lambda value, test, reader: value is not _ABSENT and value is not None,
    "unset": lambda value, test, reader: value is _ABSENT or value is None,
    "empty": lambda value, test, reader: _text(value) == "",
    "filled": lambda value, test, reader: _text(value) != "",
    "equal": lambda value, test, reader: _same(value, test.to),
    "unequal": lambda value, test, reader: not _same(value, test.to),
    "below": lambda value, test, reader: _compare(value, test, reader, lambda a, b: a < b),
    "above": lambda value, test, reader: _compare(value, test, reader, lambda a, b: a > b),
    "unlike": lambda value, test, reader: not reader.matches(value, test.pattern or ""),
}


def _compare(value: Any, test: FieldTest, reader: Reader, op: Callable[[int, int], bool]) -> bool:
    """An integer against `to`, or against the integer at `other`; false when
    either is not there."""
    other = reader.field(test.other) if test.other is not None else test.to
    return _is_int(value) and _is_int(other) and op(value, other)


class Reader:
    """Reads an InferenceService's fields for one component (or none) and one case."""

    def __init__(
        self,
        policy: Policy,
        isvc: Manifest,
        component: str | None = None,
        values: Mapping[str, str] | None = None,
    ) -> None:
        self.policy = policy
        self.isvc = isvc
        self.component = component
        self.values = dict(values or {})
        self._filled: tuple[tuple[str, str], ...] | None = None

    def placeholders(self) -> dict[str, str]:
        return _placeholders(self.policy, self.component)

    def segments(self, template: str) -> paths.Segments:
        if self._filled is None:
            self._filled = tuple(self.placeholders().items())
        return _expanded(template, self._filled)

    def all(self, template: str) -> Iterator[Any]:
        """Every value at the path (one, or one per list item at a `*`)."""
        yield from _walk(self.isvc.body, self.segments(template))

    def field(self, template: str) -> Any:
        """The value at a path without `*`: _ABSENT when not there."""
        return paths.lookup(self.isvc.body, self.segments(template))

    def first_filled(self, source_ids: tuple[str, ...]) -> str:
        """The first of these sources' places holding a non-empty string, as
        written; "" when none does (OME's raw read of a mode). With no ids, the
        InferenceService's requested sources that count, in force."""
        if source_ids:
            sources = [self.policy.sources_by_id[i] for i in source_ids]
        else:
            sources = [
                s
                for s in self.policy.rules.sources.requested
                if s.counts != "never" and in_force(s.since, s.until, self.policy.version)
            ]
        for source in sources:
            if source.path is None:
                continue
            value = self.field(source.path)
            if isinstance(value, str) and value != "":
                return value
        return ""

    def builtins(self) -> dict[str, str]:
        return {
            "component": self.component or "",
            "namespace": self.isvc.namespace or "",
            "name": self.isvc.name,
        }

    def matches(self, value: Any, pattern: str) -> bool:
        """Whether the whole string matches `pattern`, its placeholders filled
        with this case's values, escaped."""
        filled = fill(pattern, {k: re.escape(v) for k, v in self.known().items()})
        return re.fullmatch(filled, _text(value)) is not None

    def known(self) -> dict[str, str]:
        return {**self.builtins(), **self.values}


def _placeholders(policy: Policy, component: str | None) -> dict[str, str]:
    found = {"annotation_key": policy.rules.annotation_key}
    if component is not None:
        found.update(policy.placeholder_values(policy.components_by_name[component]))
    return found


# The checks read the same few paths of every InferenceService: each is
# expanded once per set of placeholder values.
@functools.lru_cache(maxsize=4096)
def _expanded(template: str, placeholders: tuple[tuple[str, str], ...]) -> paths.Segments:
    return paths.expand(template, dict(placeholders))


def _walk(node: Any, segments: paths.Segments) -> Iterator[Any]:
    if not segments:
        yield node
        return
    head, rest = segments[0], segments[1:]
    if head == _ANY_ITEM:
        if isinstance(node, list):
            for item in node:
                yield from _walk(item, rest)
        return
    if not isinstance(node, dict):
        yield _ABSENT
        return
    yield from _walk(node.get(head, _ABSENT), rest)


def holds(test: FieldTest, reader: Reader) -> bool:
    """Whether `test` holds: for a `*` path, for any item."""
    check = TESTS[test.test]
    if test.sources:
        return check(reader.first_filled(test.sources), test, reader)
    if test.field is None:
        return False
    return any(check(value, test, reader) for value in reader.all(test.field))


def all_hold(tests: tuple[FieldTest, ...], reader: Reader) -> bool:
    return all(holds(test, reader) for test in tests)


def case_values(case: CheckCase, reader: Reader) -> dict[str, str]:
    """What the case passes its message: the built-in values, then its own
    (fields and sources first, then texts, which may use them)."""
    values = reader.builtins()
    texts: dict[str, str] = {}
    for name, spec in case.values.items():
        if spec.text is not None:
            texts[name] = spec.text
        else:
            values[name] = _value(spec, reader)
    for name, text in texts.items():
        values[name] = fill(text, values)
    return values


def _value(spec: CheckValue, reader: Reader) -> str:
    if spec.sources:
        return reader.first_filled(spec.sources)
    value = reader.field(spec.field or "")
    if value is _ABSENT or value is None:
        return ""
    return str(value) if not isinstance(value, bool) else str(value).lower()


def fields_read(tests: tuple[FieldTest, ...]) -> Iterator[tuple[str, str]]:
    """(path template, what the test expects there) for each field a test reads."""
    for test in tests:
        expects = EXPECTS[test.test]
        if test.test in ("equal", "unequal") and test.to is not None:
            expects = _KIND_OF[type(test.to)]
        if test.field is not None:
            yield test.field, expects
        if test.other is not None:
            yield test.other, expects


# What a field must hold for a test to read it as OME does (bad input otherwise).
_INTEGER, _STRING, _BOOLEAN, _ANYTHING = "integer", "string", "boolean", "anything"
EXPECTS = {
    "set": _ANYTHING,
    "unset": _ANYTHING,
    "empty": _STRING,
    "filled": _STRING,
    "equal": _ANYTHING,
    "unequal": _ANYTHING,
    "below": _INTEGER,
    "above": _INTEGER,
    "unlike": _STRING,
}
_KIND_OF = {bool: _BOOLEAN, int: _INTEGER, str: _STRING}


# --- what the checks read must be of the type OME's API gives it --------------------------

_HOLDS: dict[str, Callable[[Any], bool]] = {
    _INTEGER: _is_int,
    _STRING: lambda v: isinstance(v, str),
    _BOOLEAN: lambda v: isinstance(v, bool),
    _ANYTHING: lambda v: True,
}
_SAYS = {_INTEGER: "an integer", _STRING: "a string", _BOOLEAN: "true or false"}


# Bounded: a long-running program (a webhook) may make a Policy per request.
@functools.lru_cache(maxsize=16)
def read_fields(policy: Policy) -> tuple[tuple[str, str | None, str], ...]:
    """(path template, component or None, what it must hold) for every field
    the `fields` checks in force read."""
    found: list[tuple[str, str | None, str]] = []
    for rule in policy.admission:
        components: tuple[str | None, ...] = rule.each or (None,)
        tests = [*rule.guard, *(rule.undecided.when if rule.undecided else ())]
        for case in rule.cases:
            tests.extend(case.when)
        for component in components:
            found.extend((path, component, holds) for path, holds in fields_read(tuple(tests)))
            for case in rule.cases:
                for spec in case.values.values():
                    if spec.field is not None:
                        found.append((spec.field, component, _ANYTHING))
    return tuple(found)


@functools.lru_cache(maxsize=16)  # bounded as read_fields is
def _read_paths(policy: Policy) -> tuple[tuple[paths.Segments, str], ...]:
    """`read_fields` with each path expanded for its component, each once (several
    checks read the same fields): what every InferenceService is checked for."""
    found: dict[tuple[paths.Segments, str], None] = {}
    for template, component, holds in read_fields(policy):
        found[paths.expand(template, _placeholders(policy, component)), holds] = None
    return tuple(found)


def check_test_fields(policy: Policy, isvc: Manifest) -> None:
    """Every field the checks read holds what OME's API would let it hold, and
    every mapping on the way to it is a mapping (a list at `*`): an object the
    API server would refuse is bad input, not a value read as unset."""
    from modetable.errors import ModetableError
    from modetable.yamlio import describe, where

    for segments, holds in _read_paths(policy):
        for node, segment, value, expected in _steps(isvc.body, segments, holds):
            if not _HOLDS.get(expected, lambda v: True)(value):
                shown = _SAYS.get(expected, expected)
                raise ModetableError(
                    f"{paths.render(segments)} must be {shown}, got {describe(value)}",
                    where(node, segment, isvc.location),
                )


def _steps(node: Any, segments: paths.Segments, holds: str) -> Iterator[tuple[Any, Any, Any, str]]:
    """(holder, key, value, what it must be) along the path, through every list item at `*`."""
    if not segments or not isinstance(node, dict | list):
        return
    head, rest = segments[0], segments[1:]
    if head == _ANY_ITEM:
        if isinstance(node, list):
            for index, item in enumerate(node):
                if item is None:
                    continue
                expected = holds if not rest else _MAPPING
                yield node, index, item, expected
                yield from _steps(item, rest, holds)
        return
    if not isinstance(node, dict):
        return
    value = node.get(head)
    if value is None:
        return
    expected = holds if not rest else (_LIST if rest[0] == _ANY_ITEM else _MAPPING)
    yield node, head, value, expected
    yield from _steps(value, rest, holds)


_MAPPING, _LIST = "a mapping", "a list"
_HOLDS[_MAPPING] = lambda v: isinstance(v, dict)
_HOLDS[_LIST] = lambda v: isinstance(v, list)
