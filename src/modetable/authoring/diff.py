"""What changes between two policies (two versions, or two files at one
version), for every input combination, with the rule behind each change.

Every decision the rules make is tried on every combination of its inputs
under both policies, and only the combinations whose outcome differs are
kept, grouped into patterns ("-" for any value). The decisions:

- mode values: whether each value counts as a mode (and its status);
- matching: the table's outcome for the raw values each side declares (a
  value that is no mode in a version reaches the table as none);
- requested, declared, running: each component's mode and deciding source
  for every combination of the values its sources read (sources that never
  count are left out: they cannot change a result); the running section
  includes the run-time failure of the resolved mode;
- admission: the verdict on an InferenceService declaring the components the
  checks name, for every combination of the values they read, a value that is
  no mode on either side included (`other`: the schema check reads the raw
  value, so a misspelling is denied where no mode is read as none);
- rules in force: the rules themselves, every value of each side's rules in
  force compared (`authoring/in_force.py`), so a change no decision shows (a
  reworded message, checks in another order, a status, a docs sentence) is
  still reported.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import product
from typing import Any

import attrs

from modetable.admission import admit
from modetable.authoring.patterns import compress, show_set
from modetable.authoring.scenarios import NAMED, PRESENT, UNSET, Slot, domain, objects, slots
from modetable.engine.matching import decide
from modetable.engine.modes import Resolution
from modetable.errors import Location, ModetableError
from modetable.inputs.manifests import Manifest
from modetable.rules.policy import PURPOSES, Policy
from modetable.rules.words import ConditionWord, SourceObject
from modetable.settled import frozen
from modetable.versions import describe_range, in_force

__all__ = ["Change", "Section", "Side", "diff"]


@frozen
class Side:
    """One of the two policies compared, and how to name it."""

    label: str
    policy: Policy


@frozen
class Change:
    inputs: tuple[str, ...]
    before: str
    after: str
    why: str


@frozen
class Section:
    title: str
    inputs: tuple[str, ...]
    changes: tuple[Change, ...]
    combinations: int
    listed: bool = False  # whole rules and texts: better listed than tabled


def diff(before: Side, after: Side) -> list[Section]:
    """Every section, in the order of the data flow (values, table, modes, admission)."""
    shared = [c.name for c in after.policy.components if c.name in before.policy.components_by_name]
    sections = [
        _mode_values(before, after),
        _compared(before, after, shared),
        _matching(before, after),
    ]
    for purpose in PURPOSES:
        # Components whose changes are the same share one section.
        same: dict[tuple[Any, ...], list[str]] = {}
        found: dict[tuple[Any, ...], Section] = {}
        for component in shared:
            section = _resolution(before, after, purpose, component)
            key = (section.inputs, section.changes)
            same.setdefault(key, []).append(component)
            found.setdefault(key, section)
        for key, components in same.items():
            title = f"{purpose} mode of the {_and(components)}"
            sections.append(attrs.evolve(found[key], title=title))
    sections.append(_admission(before, after))
    sections.append(_rules_in_force(before, after))
    return sections


def _rules_in_force(before: Side, after: Side) -> Section:
    from modetable.authoring.in_force import compare

    differences, compared = compare(before.policy, after.policy)
    changes = tuple(Change((d.where,), d.before, d.after, d.why) for d in differences)
    return Section("rules in force", ("rule",), changes, compared, listed=True)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# --- helpers ------------------------------------------------------------------


def _mode_names(before: Side, after: Side) -> list[str]:
    names = dict.fromkeys(m.name for m in before.policy.rules.modes)
    names.update(dict.fromkeys(m.name for m in after.policy.rules.modes))
    return list(names)


def _validity(policy: Policy, value: str) -> str:
    mode = policy.modes_in_force.get(value)
    if mode is None:
        return "no mode"
    replacement = f", use {mode.replacement}" if mode.replacement else ""
    return f"a mode ({mode.status}{replacement})"


def _single(pattern: Sequence[frozenset[Any]]) -> list[Any]:
    """The inputs a pattern pins to one value."""
    return [next(iter(values)) for values in pattern if len(values) == 1]


def _example(pattern: Sequence[frozenset[Any]], domains: Sequence[Sequence[Any]]) -> tuple:
    """One combination of a pattern: each input's first value in domain order."""
    return tuple(
        next(v for v in d if v in values) for values, d in zip(pattern, domains, strict=True)
    )


def _validity_notes(before: Side, after: Side, pattern: Sequence[frozenset[Any]]) -> str:
    notes = []
    values = _single(pattern)
    for value in dict.fromkeys(v for v in values if isinstance(v, str) and v != PRESENT):
        was, now = _validity(before.policy, value), _validity(after.policy, value)
        if was != now:
            notes.append(f"{value}: {was} → {now}")
    return "; ".join(notes)


def _section(
    title: str,
    names: Sequence[str],
    domains: Sequence[Sequence[Any]],
    outcome: Callable[[Side, tuple[Any, ...]], tuple[Hashable, str]],
    why: Callable[[tuple[Any, ...]], str],
    before: Side,
    after: Side,
    show: Callable[[Any], str],
) -> Section:
    """Try every combination under both sides; keep those whose outcome changes.

    `why` sees a pattern: the set of values of each input that give the change.
    """
    points = []
    count = 0
    for inputs in product(*domains):
        count += 1
        was_key, was = outcome(before, inputs)
        now_key, now = outcome(after, inputs)
        if was_key != now_key:
            points.append((inputs, (was, now)))
    changes = tuple(
        Change(
            tuple(show_set(v, d, show) for v, d in zip(inputs, domains, strict=True)),
            label[0],  # type: ignore[index]
            label[1],  # type: ignore[index]
            why(inputs),
        )
        for inputs, label in compress(points, domains)
    )
    return Section(title, tuple(names), changes, count)


def _show_value(value: Any) -> str:
    if value is UNSET:
        return "unset"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


# --- the sections -------------------------------------------------------------


def _other_value(modes: Sequence[str]) -> str:
    """A value that is no mode on either side (a misspelling, say): `other`."""
    value = "other"
    while value in modes:
        value += "_"
    return value


def _mode_values(before: Side, after: Side) -> Section:
    def outcome(side: Side, inputs: tuple[Any, ...]) -> tuple[Hashable, str]:
        text = _validity(side.policy, inputs[0])
        return text, text

    def why(pattern: tuple[frozenset[Any], ...]) -> str:
        notes = []
        for value in (v for v in names if v in pattern[0]):
            was, now = _mode_rule(before.policy, value), _mode_rule(after.policy, value)
            if was != now:
                notes.append(f"{before.label}: {was}; {after.label}: {now}")
            elif value in before.policy.modes_in_force and value in after.policy.modes_in_force:
                # Valid on both sides: what changed is its status or replacement.
                was_mode, now_mode = (
                    before.policy.modes_in_force[value],
                    after.policy.modes_in_force[value],
                )
                fields = [
                    f
                    for f in ("status", "replacement")
                    if getattr(was_mode, f) != getattr(now_mode, f)
                ]
                ranged = _status_rule(after.policy, value) or _status_rule(before.policy, value)
                if ranged:
                    notes.append(f"modes {value}: {ranged}")
                else:
                    notes.append(f"modes {value}: {_and(fields)} changed")
            else:
                notes.append(was)
        return "; ".join(notes)

    names = _mode_names(before, after)
    return _section("mode values", ("value",), [names], outcome, why, before, after, _show_value)


def _row(row_id: str | None) -> str:
    return f"row {row_id}" if row_id else "no row decides"


def _compared(before: Side, after: Side, components: list[str]) -> Section:
    """Which components matching compares (always, when declared, never)."""

    def outcome(side: Side, inputs: tuple[Any, ...]) -> tuple[Hashable, str]:
        compared = side.policy.components_by_name[inputs[0]].compared
        return compared, compared.replace("_", " ")

    def why(pattern: tuple[frozenset[Any], ...]) -> str:
        return "components: compared"

    return _section(
        "compared for matching", ("component",), [components], outcome, why, before, after, str
    )


def _status_rule(policy: Policy, name: str) -> str | None:
    """`deprecated since v1.3`: the versioned status (`statuses`) in force, if any."""
    for mode in policy.rules.modes:
        if mode.name == name:
            for change in mode.statuses:
                if in_force(change.since, change.until, policy.version):
                    return f"{change.status} {describe_range(change.since, change.until)}"
    return None


def _mode_rule(policy: Policy, name: str) -> str:
    mode = policy.all_modes.get(name)
    if mode is None:
        return "not defined"
    return f"modes {name} {describe_range(mode.since, mode.until)}"


def _matching(before: Side, after: Side) -> Section:
    values: list[Any] = [None, *_mode_names(before, after)]

    def outcome(side: Side, inputs: tuple[Any, ...]) -> tuple[Hashable, str]:
        policy = side.policy
        requested, declared = (v if v in policy.modes_in_force else None for v in inputs)
        try:
            row = decide(policy, requested, declared)
        except ModetableError as exc:
            return ("error", exc.message), f"error: {exc.message}"
        message = f", {row.message}" if row.message else ""
        return (row.outcome, row.message), f"{row.outcome} (row {row.id}{message})"

    def rows(side: Side, inputs: tuple[Any, ...]) -> str | None:
        policy = side.policy
        requested, declared = (v if v in policy.modes_in_force else None for v in inputs)
        try:
            return decide(policy, requested, declared).id
        except ModetableError:
            return None

    def why(pattern: tuple[frozenset[Any], ...]) -> str:
        notes = _validity_notes(before, after, pattern)
        if notes:
            return notes
        inputs = _example(pattern, [values, values])
        was, now = rows(before, inputs), rows(after, inputs)
        if was == now:
            return f"row {now} changed"
        return f"{_row(was)} → {_row(now)}"

    return _section(
        "matching (each compared component)",
        ("requested", "declared"),
        [values, values],
        outcome,
        why,
        before,
        after,
        lambda v: ConditionWord.NONE if v is None else str(v),
    )


def _resolution(before: Side, after: Side, purpose: str, component: str) -> Section:
    found = list(slots(before.policy, purpose, component))
    for slot in slots(after.policy, purpose, component):
        if slot not in found:
            found.append(slot)
    modes = _mode_names(before, after)
    domains = [domain(slot, modes) for slot in found]

    # Each side's own slots (its sources, its labels), worked out once, not
    # for each of the thousands of combinations `resolved` is run for.
    own = {
        id(side): {s: s for s in slots(side.policy, purpose, component)} for side in (before, after)
    }

    def resolved(side: Side, inputs: tuple[Any, ...]) -> Resolution:
        from modetable.engine.modes import resolve

        policy = side.policy
        known = own[id(side)]
        held = {
            known[slot]: value for slot, value in zip(found, inputs, strict=True) if slot in known
        }
        return resolve(policy, purpose, policy.components_by_name[component], objects(held))

    def outcome(side: Side, inputs: tuple[Any, ...]) -> tuple[Hashable, str]:
        result = resolved(side, inputs)
        text = _resolution_text(side.policy, result)
        failure = ""
        if purpose == "running" and result.effect is None:  # an effect means no workload
            failure = _run_failure(side.policy, component, result.mode)
        if failure:
            text += f"; {failure}"
        # The mode (and what comes of it) is the outcome; the source is the rule behind it.
        return (result.mode, result.effect, failure), text

    def why(pattern: tuple[frozenset[Any], ...]) -> str:
        inputs = _example(pattern, domains)
        was = {r.source_id: r.verdict for r in resolved(before, inputs).readings}
        now = {r.source_id: r.verdict for r in resolved(after, inputs).readings}
        notes = [
            f"{source}: {_verdict(was.get(source, 'absent'))} → {_verdict(verdict)}"
            for source, verdict in now.items()
            if was.get(source, "absent") != verdict
        ]
        notes += [
            f"{s}: {_verdict(v)} → not a source"
            for s, v in was.items()
            if s not in now and v != "absent"
        ]
        return "; ".join(notes) or _validity_notes(before, after, pattern)

    title = f"{purpose} mode of the {component}"
    labels = tuple(_slot_label(slot) for slot in found)
    return _section(title, labels, domains, outcome, why, before, after, _show_value)


def _verdict(verdict: str) -> str:
    return verdict.replace("_", " ")


def _slot_label(slot: Slot) -> str:
    return "named" if slot == NAMED else slot.label


def _resolution_text(policy: Policy, result: Resolution) -> str:
    if result.mode is None:
        return ConditionWord.NONE
    effect = f", {result.effect}" if result.effect else ""
    return f"{result.mode} ({result.source_id}{effect})"


def _run_failure(policy: Policy, component: str, mode: str | None) -> str:
    """The run-time failure of a component resolved to `mode`, as the rule's id."""
    runs_in = policy.components_by_name[component].runs_in
    if mode is None or mode in runs_in:
        return ""
    for rule in policy.run_failures:
        if component in rule.components and mode in rule.modes:
            return f"fails at run time ({rule.id})"
    return policy.message("cannot_run_in", component=component, mode=mode)


def _admission(before: Side, after: Side) -> Section:
    """The admission verdict, for every combination of what the checks read."""
    components: dict[str, None] = {}
    source_ids: dict[str, None] = {}
    for side in (before, after):
        for rule in side.policy.rules.admission:
            if rule.check not in _MODE_CHECK_KINDS:
                continue
            components.update(dict.fromkeys(rule.components))
            if rule.source:
                source_ids[rule.source] = None
    found: list[Slot] = []
    owners: dict[Slot, list[str]] = {}
    for side in (before, after):
        policy = side.policy
        for name in components:
            if name in policy.components_by_name:
                for slot in slots(policy, "requested", name):
                    owners.setdefault(slot, []).append(name)
                    if slot not in found:
                        found.append(slot)
        for source_id in source_ids:
            source = policy.sources_by_id.get(source_id)
            if source is not None and source.path is not None:
                slot = Slot("isvc", _expand(policy, source.path), labels=(source.label,))
                if slot not in found:
                    found.append(slot)
    found = [s for s in found if s.object == SourceObject.ISVC and s.path is not None]
    modes = _mode_names(before, after)
    domains = [[*domain(slot, modes), _other_value(modes)] for slot in found]

    def outcome(side: Side, inputs: tuple[Any, ...]) -> tuple[Hashable, str]:
        policy = side.policy
        body: dict[str, Any] = objects(dict(zip(found, inputs, strict=True))).isvc
        for name in components:
            component = policy.components_by_name.get(name)
            if component is not None:
                body = _declare(policy, body, component)
        isvc = Manifest(
            kind=policy.rules.manifests.inference_service,
            name="example",
            namespace="default",
            scope="namespace",
            body=body,  # type: ignore[arg-type]
            location=Location("<rules diff>"),
        )
        verdict = admit(policy, isvc, only=_mode_checks(policy))
        if verdict.allowed:
            return "allowed", "allowed"
        rule = verdict.denials[0].rule
        return ("denied", rule), f"denied ({rule})"

    def why(pattern: tuple[frozenset[Any], ...]) -> str:
        inputs = _example(pattern, domains)
        notes = []
        for side, other in ((after, before), (before, after)):
            verdict = outcome(side, inputs)[0]
            if verdict == "allowed":
                continue
            rule = next(r for r in side.policy.rules.admission if r.id == verdict[1])
            if not any(r.id == rule.id for r in other.policy.admission):
                notes.append(f"{rule.id} {describe_range(rule.since, rule.until)}")
        return "; ".join(notes) or _validity_notes(before, after, pattern)

    def label(slot: Slot) -> str:
        named = list(dict.fromkeys(owners.get(slot, ())))
        shared = len(named) == len(components) or not named
        return (slot.label or slot.where) if shared else f"{_and(named)} {slot.label}"

    title = f"admission (an InferenceService declaring the {_and(list(components))})"
    labels = tuple(label(slot) for slot in found)
    return _section(title, labels, domains, outcome, why, before, after, _show_value)


# The kinds of admission check that read modes: the section compares the
# verdict of these over every combination of the mode values they read.
_MODE_CHECK_KINDS = ("allowed_values", "agree_when_any")


def _mode_checks(policy: Policy) -> frozenset[str]:
    return frozenset(r.id for r in policy.admission if r.check in _MODE_CHECK_KINDS)


def _expand(policy: Policy, path: str) -> tuple[str, ...]:
    from modetable.parsing import paths

    return paths.split(path)


def _declare(policy: Policy, body: dict[str, Any], component: Any) -> dict[str, Any]:
    """`body` with the component declared (`spec.<field>` a mapping)."""
    from modetable.parsing import paths

    into = policy.component_path(component, policy.rules.running_merge.into)
    if isinstance(paths.lookup(body, into), dict):
        return body
    return paths.assign(body, into, {})
