"""Every field the admission checks read holds the type OME's API gives it, on
every InferenceService: the fields the `fields` checks' tests and values read
(`check_test_fields`), and the rollout groups' fields (`check_rollout_fields`).
An object the API server would refuse is bad input, refused by every command
alike (the loader runs `check_admission_fields`), not a value read as unset.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from modetable.errors import ErrorCode, ModetableError
from modetable.inputs.manifests import Manifest
from modetable.parsing import paths
from modetable.parsing.go import go_duration_nanoseconds
from modetable.parsing.yamlio import describe, where
from modetable.rules.model.admission import FieldTest
from modetable.rules.model.rollout import RolloutFields
from modetable.rules.policy import Policy
from modetable.rules.words import TestWord

__all__ = [
    "EXPECTS",
    "check_admission_fields",
    "check_rollout_fields",
    "check_test_fields",
    "fields_read",
    "path_values",
    "read_fields",
]

_ANY_ITEM = "*"  # a path segment for every item of a list


def check_admission_fields(policy: Policy, isvc: Manifest) -> None:
    """Every field the checks in force read on `isvc` holds what it must
    (a one-line error at the first that does not)."""
    for fields in _rollout_fields(policy):
        check_rollout_fields(fields, isvc)
    check_test_fields(policy, isvc)


# Bounded as read_fields is: a long-running program may make a Policy per request.
@functools.lru_cache(maxsize=16)
def _rollout_fields(policy: Policy) -> tuple[RolloutFields, ...]:
    """The rollout checks' fields, each once (the rollout checks share them)."""
    found: list[RolloutFields] = []
    for rule in policy.admission:
        if rule.rollout is not None and rule.rollout not in found:
            found.append(rule.rollout)
    return tuple(found)


def path_values(policy: Policy, component: str | None) -> dict[str, str]:
    """The values a check's paths are filled with: the annotation key, and the
    component's placeholders when the check runs per component."""
    found = {"annotation_key": policy.rules.annotation_key}
    if component is not None:
        found.update(policy.placeholder_values(policy.components_by_name[component]))
    return found


def fields_read(tests: tuple[FieldTest, ...]) -> Iterator[tuple[str, str]]:
    """(path template, what the test expects there) for each field a test reads."""
    for test in tests:
        expects = EXPECTS[test.test]
        if test.test in (TestWord.EQUAL, TestWord.UNEQUAL) and test.to is not None:
            expects = _KIND_OF[type(test.to)]
        if test.field is not None:
            yield test.field, expects
        if test.other is not None:
            yield test.other, expects


# What a field must hold for a test to read it as OME does (bad input otherwise).
_INTEGER, _STRING, _BOOLEAN, _ANYTHING = "integer", "string", "boolean", "anything"
EXPECTS = {
    TestWord.SET: _ANYTHING,
    TestWord.UNSET: _ANYTHING,
    TestWord.EMPTY: _STRING,
    TestWord.FILLED: _STRING,
    TestWord.EQUAL: _ANYTHING,
    TestWord.UNEQUAL: _ANYTHING,
    TestWord.BELOW: _INTEGER,
    TestWord.ABOVE: _INTEGER,
    TestWord.UNLIKE: _STRING,
}
_KIND_OF = {bool: _BOOLEAN, int: _INTEGER, str: _STRING}


# --- what the checks read must be of the type OME's API gives it --------------------------

_HOLDS: dict[str, Callable[[Any], bool]] = {
    _INTEGER: lambda v: isinstance(v, int) and not isinstance(v, bool),
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
        found[paths.expand(template, path_values(policy, component)), holds] = None
    return tuple(found)


# A planned walk of every path `_read_paths` holds, their shared prefixes once:
# for each key of a mapping (or `*`, each item of a list), what its value must
# be and the walk below it.
_Trie = tuple[tuple[str, tuple[Callable[[Any], bool], ...], "_Trie"], ...]


@functools.lru_cache(maxsize=16)  # bounded as read_fields is
def _read_trie(policy: Policy) -> _Trie:
    """`_read_paths` as one tree: every test of a step that `_steps` yields."""
    tree: dict[str, Any] = {}
    for segments, holds in _read_paths(policy):
        node = tree
        for index, head in enumerate(segments):
            rest = segments[index + 1 :]
            if head == _ANY_ITEM:
                expected = holds if not rest else _MAPPING
            else:
                expected = holds if not rest else (_LIST if rest[0] == _ANY_ITEM else _MAPPING)
            tests, node = node.setdefault(head, ({}, {}))
            tests[expected] = None
    return _frozen_trie(tree)


def _frozen_trie(tree: dict[str, Any]) -> _Trie:
    return tuple(
        (
            head,
            tuple(
                test
                for expected in tests
                if (test := _HOLDS.get(expected)) is not None and expected != _ANYTHING
            ),
            _frozen_trie(below),
        )
        for head, (tests, below) in tree.items()
    )


def _all_hold(node: Any, trie: _Trie) -> bool:
    """Whether every step `_steps` yields below `node` holds (`node` a mapping
    or a list; only a list has `*` items)."""
    for head, tests, below in trie:
        if head == _ANY_ITEM:
            values = node if isinstance(node, list) else ()
        elif isinstance(node, dict):
            values = (node.get(head),)
        else:
            continue
        for value in values:
            if value is None:
                continue
            for test in tests:
                if not test(value):
                    return False
            if below and isinstance(value, dict | list) and not _all_hold(value, below):
                return False
    return True


def check_test_fields(policy: Policy, isvc: Manifest) -> None:
    """Every field the checks read holds what OME's API would let it hold, and
    every mapping on the way to it is a mapping (a list at `*`): an object the
    API server would refuse is bad input, not a value read as unset."""
    if _all_hold(isvc.body, _read_trie(policy)):
        return  # the walk path by path below finds the first problem, in order
    for segments, holds in _read_paths(policy):
        for node, segment, value, expected, depth in _steps(isvc.body, segments, holds):
            if not _HOLDS.get(expected, lambda v: True)(value):
                shown = _SAYS.get(expected, expected)
                # Named up to the value that is wrong (a mapping on the way, or the field).
                raise ModetableError(
                    f"{paths.render(segments[:depth])} must be {shown}, got {describe(value)}",
                    where(node, segment, isvc.location),
                    code=ErrorCode.WRONG_TYPE,
                )


def _steps(
    node: Any, segments: paths.Segments, holds: str, depth: int = 0
) -> Iterator[tuple[Any, Any, Any, str, int]]:
    """(holder, key, value, what it must be, how many segments reach it) along
    the path, through every list item at `*`."""
    if not segments or not isinstance(node, dict | list):
        return
    head, rest = segments[0], segments[1:]
    if head == _ANY_ITEM:
        if isinstance(node, list):
            for index, item in enumerate(node):
                if item is None:
                    continue
                expected = holds if not rest else _MAPPING
                yield node, index, item, expected, depth + 1
                yield from _steps(item, rest, holds, depth + 1)
        return
    if not isinstance(node, dict):
        return
    value = node.get(head)
    if value is None:
        return
    expected = holds if not rest else (_LIST if rest[0] == _ANY_ITEM else _MAPPING)
    yield node, head, value, expected, depth + 1
    yield from _steps(value, rest, holds, depth + 1)


_MAPPING, _LIST = "a mapping", "a list"
_HOLDS[_MAPPING] = lambda v: isinstance(v, dict)
_HOLDS[_LIST] = lambda v: isinstance(v, list)


# --- the rollout groups' fields ----------------------------------------


def check_rollout_fields(fields: RolloutFields, isvc: Manifest) -> None:
    """The groups' fields the checks read hold their types: lists of names, an
    integer or a string capacity or budget, integer traffic, failure limits and
    tolerances, string metric fields and group ordering, durations; bad input
    otherwise (the API server, or the webhook's decoding, would refuse the
    object)."""
    check = _Checker(isvc)
    ordering_path, _, ordering = fields.group_ordering.rpartition(".")
    holder = _at(isvc.body, ordering_path)
    if isinstance(holder, dict):
        check.optional(holder, ordering, fields.group_ordering, str, "a string")
    parent_path, _, key = fields.groups.rpartition(".")
    parent = _at(isvc.body, parent_path)
    if not isinstance(parent, dict) or parent.get(key) is None:
        return
    listed = check.kind(parent, key, fields.groups, list, "a list")
    for index, group in enumerate(listed):
        here = f"{fields.groups}[{index}]"
        group = check.kind(listed, index, here, dict, "a mapping")
        for name in (fields.components, fields.order):
            names = check.optional(group, name, f"{here}.{name}", list, "a list")
            for position in range(len(names or [])):
                check.kind(names, position, f"{here}.{name}[{position}]", str, "a string")
        for name in (
            fields.canary,
            fields.blue_green,
            fields.rolling_update,
            fields.policy_ref,
            fields.maintain_ratio,
        ):
            check.optional(group, name, f"{here}.{name}", dict, "a mapping")
        check.duration(group, fields.soak, f"{here}.{fields.soak}")
        ref = group.get(fields.policy_ref)
        if isinstance(ref, dict):
            path = f"{here}.{fields.policy_ref}.{fields.progression}"
            check.optional(ref, fields.progression, path, str, "a string")
        ratio = group.get(fields.maintain_ratio)
        if isinstance(ratio, dict):
            path = f"{here}.{fields.maintain_ratio}.{fields.tolerance}"
            check.optional(ratio, fields.tolerance, path, int, "an integer")
        budgets = group.get(fields.rolling_update)
        for name in fields.budgets if isinstance(budgets, dict) else ():
            path = f"{here}.{fields.rolling_update}.{name}"
            check.optional(budgets, name, path, (int, str), _INT_OR_STR)
        plan = group.get(fields.canary)
        if isinstance(plan, dict):
            _check_plan(fields, plan, f"{here}.{fields.canary}", check)


def _check_plan(fields: RolloutFields, plan: dict[str, Any], here: str, check: _Checker) -> None:
    check.duration(plan, fields.ready_timeout, f"{here}.{fields.ready_timeout}")
    steps = check.optional(plan, fields.steps, f"{here}.{fields.steps}", list, "a list")
    for index, step in enumerate(steps or []):
        at = f"{here}.{fields.steps}[{index}]"
        step = check.kind(steps, index, at, dict, "a mapping")
        check.optional(step, fields.capacity, f"{at}.{fields.capacity}", (int, str), _INT_OR_STR)
        check.optional(step, fields.traffic, f"{at}.{fields.traffic}", int, "an integer")
        path = f"{at}.{fields.analysis}"
        analysis = check.optional(step, fields.analysis, path, dict, "a mapping")
        if analysis is None:
            continue
        check.optional(
            analysis, fields.failure_limit, f"{path}.{fields.failure_limit}", int, "an integer"
        )
        check.duration(analysis, fields.interval, f"{path}.{fields.interval}")
        metrics = check.optional(
            analysis, fields.metrics, f"{path}.{fields.metrics}", list, "a list"
        )
        for position, metric in enumerate(metrics or []):
            where_ = f"{path}.{fields.metrics}[{position}]"
            metric = check.kind(metrics, position, where_, dict, "a mapping")
            for name in (fields.metric_name, fields.query, fields.threshold, fields.operator):
                check.optional(metric, name, f"{where_}.{name}", str, "a string")


_INT_OR_STR = "an integer or a string"


class _Checker:
    """Refuses, with its place, a value of the wrong type."""

    def __init__(self, isvc: Manifest) -> None:
        self.isvc = isvc

    def kind(self, holder: Any, key: Any, path: str, types: Any, what: str) -> Any:
        value = holder[key]
        if isinstance(value, bool) or not isinstance(value, types):
            raise ModetableError(
                f"{path} must be {what}, got {describe(value)}",
                where(holder, key, self.isvc.location),
                code=ErrorCode.WRONG_TYPE,
            )
        return value

    def optional(self, holder: dict[str, Any], key: str, path: str, types: Any, what: str) -> Any:
        if holder.get(key) is None:
            return None
        return self.kind(holder, key, path, types, what)

    def duration(self, holder: dict[str, Any], key: str, path: str) -> None:
        value = holder.get(key)
        if value is None:
            return
        if not isinstance(value, str) or go_duration_nanoseconds(value) is None:
            raise ModetableError(
                f"{path} must be a duration (such as 30s), got {describe(value)}",
                where(holder, key, self.isvc.location),
            )


def _at(body: Any, path: str) -> Any:
    node = body
    for segment in path.split("."):
        node = node.get(segment) if isinstance(node, dict) else None
    return node
