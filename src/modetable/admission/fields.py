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
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from modetable.engine.matching import declares
from modetable.inputs.admission_fields import path_values
from modetable.inputs.manifests import Manifest
from modetable.parsing import paths
from modetable.rules.model.admission import AdmissionRule, CheckCase, CheckValue, FieldTest
from modetable.rules.policy import Policy
from modetable.rules.words import AdmissionCheck, Counts, TestWord
from modetable.text.templates import fill, placeholders
from modetable.versions import in_force

__all__ = [
    "READS_VALUES",
    "TESTS",
    "FieldPlan",
    "FieldValues",
    "PlannedReader",
    "Reader",
    "VerdictMemo",
    "all_hold",
    "case_values",
    "field_plan",
    "holds",
]

_ANY_ITEM = "*"
_ABSENT: Any = paths.MISSING
_NOT_KEPT: Any = object()
_T = TypeVar("_T")


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
TESTS: dict[TestWord, _Test] = {
    TestWord.SET: lambda value, test, reader: value is not _ABSENT and value is not None,
    TestWord.UNSET: lambda value, test, reader: value is _ABSENT or value is None,
    TestWord.EMPTY: lambda value, test, reader: _text(value) == "",
    TestWord.FILLED: lambda value, test, reader: _text(value) != "",
    TestWord.EQUAL: lambda value, test, reader: _same(value, test.to),
    TestWord.UNEQUAL: lambda value, test, reader: not _same(value, test.to),
    TestWord.BELOW: lambda value, test, reader: _compare(value, test, reader, lambda a, b: a < b),
    TestWord.ABOVE: lambda value, test, reader: _compare(value, test, reader, lambda a, b: a > b),
    TestWord.UNLIKE: lambda value, test, reader: not reader.matches(value, test.pattern or ""),
}


# The tests that read the case's values (a pattern's placeholders).
READS_VALUES = frozenset({TestWord.UNLIKE})


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

    def with_values(self, values: Mapping[str, str]) -> Reader:
        """This reader for a case passing `values`."""
        return Reader(self.policy, self.isvc, self.component, values)

    def placeholders(self) -> dict[str, str]:
        return path_values(self.policy, self.component)

    def segments(self, template: str) -> paths.Segments:
        if self._filled is None:
            self._filled = tuple(self.placeholders().items())
        return _expanded(template, self._filled)

    def all(self, template: str) -> Iterable[Any]:
        """Every value at the path (one, or one per list item at a `*`)."""
        return _walk(self.isvc.body, self.segments(template))

    def field(self, template: str) -> Any:
        """The value at a path without `*`: _ABSENT when not there."""
        return paths.lookup(self.isvc.body, self.segments(template))

    def declares(self, component: str) -> bool:
        """Whether the InferenceService has `spec.<component>` (`matching.declares`)."""
        return declares(self.policy, self.isvc, self.policy.components_by_name[component])

    def holds(self, test: FieldTest) -> bool:
        return holds(test, self)

    def all_hold(self, tests: tuple[FieldTest, ...]) -> bool:
        return all(self.holds(test) for test in tests)

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
                if s.counts != Counts.NEVER and in_force(s.since, s.until, self.policy.version)
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


class PlannedReader(Reader):
    """A `Reader` of the values its policy's checks read, taken from the
    InferenceService beforehand (`FieldPlan.read`): a path the plan holds is
    looked up, and a test on one is run without walking anything; any other
    path is walked as `Reader` walks it."""

    def __init__(
        self, read: FieldValues, component: str | None, values: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(read.plan.policy, read.isvc, component, values)
        self._read = read
        self._slots = read.plan.slots(component)
        self._tests = read.plan.tests(component)

    def with_values(self, values: Mapping[str, str]) -> Reader:
        return PlannedReader(self._read, self.component, values)

    def all(self, template: str) -> Iterable[Any]:
        slot = self._slots.get(template)
        if slot is None:
            return super().all(template)
        found = self._read.values[slot[0]]
        return found if slot[1] else (found,)

    def field(self, template: str) -> Any:
        slot = self._slots.get(template)
        if slot is None or slot[1]:
            return super().field(template)
        return self._read.values[slot[0]]

    def declares(self, component: str) -> bool:
        return self._read.declares(component)

    def holds(self, test: FieldTest) -> bool:
        planned = self._tests.get(id(test))
        return planned(self._read.values, self) if planned is not None else holds(test, self)


# The checks read the same few paths of every InferenceService: each is
# expanded once per set of placeholder values.
@functools.lru_cache(maxsize=4096)
def _expanded(template: str, placeholders: tuple[tuple[str, str], ...]) -> paths.Segments:
    return paths.expand(template, dict(placeholders))


class VerdictMemo:
    """What the `fields` checks gave, and whether an `undecided` check's tests
    held, for the InferenceServices of one fleet, kept per what they read
    (`FieldValues.memo_key`): InferenceServices of one shape cost one decision."""

    __slots__ = ("kept", "shapes")

    def __init__(self) -> None:
        self.shapes: dict[tuple, int] = {}
        self.kept: dict[tuple, Any] = {}


class FieldValues:
    """One InferenceService's values at every path its policy's checks read
    (`FieldPlan.read`), and its readers; `memo`, when given, keeps checks'
    answers per what they read for the InferenceServices of one fleet."""

    __slots__ = ("_keys", "_readers", "isvc", "memo", "plan", "values")

    def __init__(
        self, plan: FieldPlan, isvc: Manifest, values: list[Any], memo: VerdictMemo | None = None
    ) -> None:
        self.plan = plan
        self.isvc = isvc
        self.values = values
        self.memo = memo
        self._readers: dict[str | None, PlannedReader] = {}
        # FieldPlan.variants index -> its part of a memo key (-1: the shape's id).
        self._keys: dict[int, Any] = {}

    def memo_key(self, what: str, rule_id: str) -> tuple | None:
        """The key of a check's answer in `memo`: all it may read (the values
        at the paths the checks read, the rule's own reads of the objects'
        names, the namespace where its texts use it); None when there is no
        memo or the rule is not kept (`FieldPlan.keyed`)."""
        memo = self.memo
        if memo is None:
            return None
        variant = self.plan.keyed.get(rule_id)
        if variant is None:
            return None
        found = self._keys.get(variant)
        if found is None:
            found = self._keys[variant] = self._key(variant)
        return (what, rule_id, found)

    def kept(self, what: str, rule_id: str, make: Callable[[], _T]) -> _T:
        """`make()`, the answer of a check (`what`: `fields`, `undecided`),
        kept in `memo` per what it reads where the check is kept, else made."""
        key = self.memo_key(what, rule_id)
        if key is None:
            return make()
        kept = self.memo.kept  # type: ignore[union-attr]  # a key means a memo
        found = kept.get(key, _NOT_KEPT)
        if found is _NOT_KEPT:
            found = kept[key] = make()
        return found

    def _key(self, variant: int) -> tuple:
        """What the rules of one `FieldPlan.variants` entry read here."""
        plan, memo = self.plan, self.memo
        assert memo is not None
        shape = self._keys.get(-1)
        if shape is None:
            shape = self._keys[-1] = memo.shapes.setdefault(
                _tokens(self.values, plan.shape_slots), len(memo.shapes)
            )
        own, namespace = plan.variants[variant]
        return (
            shape,
            _tokens(self.values, own) if own else (),
            self.isvc.namespace if namespace else None,
        )

    def reader(self, component: str | None = None) -> PlannedReader:
        """The reader for `component` (or none), made once."""
        found = self._readers.get(component)
        if found is None:
            found = self._readers[component] = PlannedReader(self, component)
        return found

    def declares(self, component: str) -> bool:
        """Whether the InferenceService has `spec.<component>` (`matching.declares`)."""
        slot = self.plan.declared_slot(component)
        if slot is None:
            policy = self.plan.policy
            return declares(policy, self.isvc, policy.components_by_name[component])
        return isinstance(self.values[slot], dict)


class FieldPlan:
    """Every path a policy's admission checks read (their tests, values and
    sources, and `spec.<component>` for whether it is declared), expanded for
    no component and for each, once per policy; `read` takes them all from an
    InferenceService in one walk over their shared prefixes, instead of a
    path expanded and walked from the top at every read of every check."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        nodes: dict[paths.Segments, int] = {(): 0}
        self._steps: list[tuple[int, str]] = []  # (the slot of the holder, the key)
        starred: dict[paths.Segments, int] = {}  # paths through list items, walked whole
        found: dict[str | None, dict[str, tuple[int, bool]]] = {}
        for component in [None, *(c.name for c in policy.components)]:
            here = found[component] = {}
            filled = tuple(path_values(policy, component).items())
            for template in _templates_read(policy):
                try:
                    segments = _expanded(template, filled)
                except KeyError:  # a placeholder this component lacks: walked at the read
                    continue
                if _ANY_ITEM in segments:
                    here[template] = (starred.setdefault(segments, len(starred)), True)
                else:
                    here[template] = (self._node(nodes, segments), False)
        # The values at `*` paths come after the walked ones.
        walked = len(self._steps) + 1
        self._starred = tuple(starred)
        self._slots = {
            component: {
                template: (walked + slot if is_starred else slot, is_starred)
                for template, (slot, is_starred) in here.items()
            }
            for component, here in found.items()
        }
        self._tests: dict[str | None, dict[int, _PlannedTest]] = {
            component: {
                id(test): planned
                for test in _tests_of(policy)
                if (planned := _planned(test, self._slots[component])) is not None
            }
            for component in self._slots
        }
        self._keys()

    def _node(self, nodes: dict[paths.Segments, int], segments: paths.Segments) -> int:
        found = nodes.get(segments)
        if found is None:
            parent = self._node(nodes, segments[:-1])
            self._steps.append((parent, segments[-1]))
            found = nodes[segments] = len(self._steps)
        return found

    def slots(self, component: str | None) -> dict[str, tuple[int, bool]]:
        """(slot, is a `*` path) of each template the checks read, for `component`."""
        return self._slots.get(component, {})

    def declared_slot(self, component: str) -> int | None:
        """The slot of `spec.<component>` (whether it is declared), when walked."""
        slot = self.slots(component).get(self.policy.rules.running_merge.into)
        return slot[0] if slot is not None and not slot[1] else None

    def tests(self, component: str | None) -> dict[int, _PlannedTest]:
        """The tests on a field, by `id` (the rules' own objects), each run on
        the slot it reads, for `component`."""
        return self._tests.get(component, {})

    def read(self, isvc: Manifest, memo: VerdictMemo | None = None) -> FieldValues:
        values: list[Any] = [isvc.body]
        append = values.append
        for parent, key in self._steps:
            node = values[parent]
            append(node.get(key, _ABSENT) if isinstance(node, dict) else _ABSENT)
        for segments in self._starred:
            append(tuple(_walk(isvc.body, segments)))
        return FieldValues(self, isvc, values, memo)

    def _keys(self) -> None:
        """What a memo key holds (`FieldValues.memo_key`): the shape (every
        value the checks read, but the objects' names, whose values are as
        many as the objects: a key holding them would share nothing); for each
        `fields` check and each check with `undecided` tests, the names it
        reads, and whether its texts use the namespace. A value is kept whole
        where a check reads what it holds (a case's value, a comparison, a
        pattern, a source); elsewhere (tests of whether it is set or empty)
        as only whether it is there, null, empty, or else what it is.
        Not kept: a check reading a name whole or whose texts use the
        InferenceService's name (each answer its own), and every check when a
        read could miss the plan and walk the InferenceService itself (a
        component's declaration, a single value at a `*` path)."""
        policy = self.policy
        self.shape_slots: tuple[tuple[int, bool], ...] = ()
        # Each kept rule's entry of `variants`: the name slots it reads, and
        # whether the namespace is part of its answer.
        self.keyed: dict[str, int] = {}
        self.variants: list[tuple[tuple[tuple[int, bool], ...], bool]] = []
        if any(self.declared_slot(c.name) is None for c in policy.components):
            return
        by_template: dict[str, set[int]] = {}
        starred: set[str] = set()
        for here in self._slots.values():
            for template, (slot, is_starred) in here.items():
                by_template.setdefault(template, set()).add(slot)
                if is_starred:
                    starred.add(template)

        def slots_of(templates: Iterable[str]) -> set[int]:
            return {slot for t in templates for slot in by_template.get(t, ())}

        rules = [
            r for r in policy.admission if r.check == AdmissionCheck.FIELDS or _undecided_tests(r)
        ]
        whole: set[int] = set()
        for rule in rules:
            read_whole = _read_whole(policy, rule)
            if read_whole & starred:
                return
            whole |= slots_of(read_whole)
        names = {policy.rules.runtime_ref.name}
        selection = policy.rules.selection
        if selection is not None:
            names.add(f"{selection.model_ref.path}.{selection.model_ref.name}")
        names.discard(policy.rules.running_merge.into)
        name_slots = slots_of(names)
        self.shape_slots = tuple(
            (slot, slot in whole)
            for slot in sorted(slots_of(by_template))
            if slot not in name_slots
        )
        for rule in rules:
            used = _isvc_names_used(policy, rule)
            own = slots_of(_templates_of(policy, rule)) & name_slots
            if "name" in used or own & slots_of(_read_whole(policy, rule)):
                continue
            variant = (tuple((slot, False) for slot in sorted(own)), "namespace" in used)
            if variant not in self.variants:
                self.variants.append(variant)
            self.keyed[rule.id] = self.variants.index(variant)


# A test on one field, given the values read and the reader (for `other` and
# a pattern's placeholders).
_PlannedTest = Callable[[list[Any], "Reader"], bool]


def _planned(test: FieldTest, slots: dict[str, tuple[int, bool]]) -> _PlannedTest | None:
    """`holds(test, reader)` reading its field from the values read, when the
    test reads one field the plan holds (otherwise None: `holds` runs)."""
    if test.sources or test.field is None or test.field not in slots:
        return None
    check = TESTS[test.test]
    slot, starred = slots[test.field]
    if starred:
        return lambda values, reader: any(check(v, test, reader) for v in values[slot])
    return lambda values, reader: check(values[slot], test, reader)


def _tests_of(policy: Policy) -> Iterator[FieldTest]:
    for rule in policy.admission:
        yield from rule.guard
        if rule.undecided is not None:
            yield from rule.undecided.when
        for case in rule.cases:
            yield from case.when


@functools.lru_cache(maxsize=16)  # bounded as read_fields is
def field_plan(policy: Policy) -> FieldPlan:
    """The policy's `FieldPlan`, made once."""
    return FieldPlan(policy)


def _templates_read(policy: Policy) -> tuple[str, ...]:
    """Every path template a check reads through a Reader: its tests' fields,
    its values' fields, the places of the sources it reads, whether a
    component is declared."""
    found: dict[str, None] = {policy.rules.running_merge.into: None}
    source_ids: set[str] = set()
    for rule in policy.admission:
        tests = [*rule.guard, *(rule.undecided.when if rule.undecided else ())]
        for case in rule.cases:
            tests.extend(case.when)
            for spec in case.values.values():
                if spec.field is not None:
                    found[spec.field] = None
                source_ids.update(spec.sources)
        for test in tests:
            for template in (test.field, test.other):
                if template is not None:
                    found[template] = None
            source_ids.update(test.sources)
        source_ids.update(rule.mode_sources)
    selection = policy.rules.selection
    if selection is not None:
        found[f"{selection.model_ref.path}.{selection.model_ref.name}"] = None
    sources = [policy.sources_by_id[i] for i in sorted(source_ids) if i in policy.sources_by_id]
    sources.extend(policy.rules.sources.requested)  # first_filled with no ids
    for source in sources:
        if source.path is not None:
            found[source.path] = None
    return tuple(found)


def _token(value: Any) -> Any:
    """`value` as a memo key holds it where only `set`, `unset`, `empty` and
    `filled` read it: absent or null as itself, a string as whether it is
    empty, anything else as its type (Go reads it as an empty string)."""
    if value is None or value is _ABSENT:
        return value
    if isinstance(value, str):
        return value == ""
    kind = type(value)
    if kind is tuple:  # the values at a `*` path
        return tuple(map(_token, value))
    return kind


def _whole(value: Any) -> Any:
    """`value` as a memo key holds it where a check reads what it holds."""
    kind = type(value)
    if kind is str or value is None or value is _ABSENT:
        return value
    if isinstance(value, dict):
        return (kind, tuple((k, _whole(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (kind, tuple(map(_whole, value)))
    return (kind, value)


def _tokens(values: list[Any], slots: tuple[tuple[int, bool], ...]) -> tuple:
    """The values at `slots` as a key holds them (each slot: whether read whole)."""
    return tuple([_whole(values[s]) if whole else _token(values[s]) for s, whole in slots])


def _undecided_tests(rule: AdmissionRule) -> tuple[FieldTest, ...]:
    return rule.undecided.when if rule.undecided is not None else ()


def _rule_tests(rule: AdmissionRule) -> list[FieldTest]:
    tests = [*rule.guard, *_undecided_tests(rule)]
    for case in rule.cases:
        tests.extend(case.when)
    return tests


def _source_paths(policy: Policy, ids: Iterable[str]) -> set[str]:
    return {
        source.path
        for i in ids
        if (source := policy.sources_by_id.get(i)) is not None and source.path is not None
    }


def _templates_of(policy: Policy, rule: AdmissionRule) -> set[str]:
    """Every path template a `fields` check or an `undecided` test reads."""
    found: set[str] = set()
    for test in _rule_tests(rule):
        found.update(t for t in (test.field, test.other) if t is not None)
        found |= _source_paths(policy, test.sources)
    return found | _case_paths(policy, rule)


def _case_paths(policy: Policy, rule: AdmissionRule) -> set[str]:
    """The templates a case's values read, whole (a field, a source's path)."""
    found: set[str] = set()
    for case in rule.cases:
        for spec in case.values.values():
            if spec.field is not None:
                found.add(spec.field)
            found |= _source_paths(policy, spec.sources)
    return found


# The tests that read only whether a value is there, null, empty or else what it is.
_READS_WHAT_IT_IS = frozenset({TestWord.SET, TestWord.UNSET, TestWord.EMPTY, TestWord.FILLED})


def _read_whole(policy: Policy, rule: AdmissionRule) -> set[str]:
    """The templates whose values the rule reads beyond what they are (a
    case's value, an equality, a comparison, a pattern, a source's string)."""
    found: set[str] = set()
    for test in _rule_tests(rule):
        if test.test not in _READS_WHAT_IT_IS and test.field is not None:
            found.add(test.field)
        if test.other is not None:
            found.add(test.other)
        found |= _source_paths(policy, test.sources)
    return found | _case_paths(policy, rule)


def _isvc_names_used(policy: Policy, rule: AdmissionRule) -> set[str]:
    """Which of the InferenceService's name and namespace a text of the rule
    (a case's message or value, a pattern) uses."""
    texts = [t.pattern for t in _rule_tests(rule) if t.pattern is not None]
    for case in rule.cases:
        message = policy.rules.messages.get(case.message)
        texts.append(message.text if message is not None else "{name}")
        texts.extend(spec.text for spec in case.values.values() if spec.text is not None)
    return {n for text in texts for n in placeholders(text) if n in ("name", "namespace")}


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
    return reader.all_hold(tests)


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
