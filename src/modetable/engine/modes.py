"""Which mode each side declares, and each component runs in, with the trace.

One function interprets every purpose (requested, declared, running): it walks
the purpose's sources in precedence order and records, for each, what it found
and why it was used or passed over.
"""

from __future__ import annotations

import functools
import json
from enum import StrEnum
from typing import Any

import attrs

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.parsing import paths
from modetable.parsing.yamlio import describe
from modetable.rules.model.modes import Component
from modetable.rules.policy import Policy, SourcePlan
from modetable.rules.words import Counts, SourceObject
from modetable.settled import frozen
from modetable.versions import describe_range

__all__ = ["Objects", "Reading", "Resolution", "Verdict", "resolve"]


class Verdict(StrEnum):
    """What became of a source: USED decides, the rest are passed over. Each is
    also the key of its explanation in the rules (`explanations`)."""

    USED = "used"
    ABSENT = "absent"
    SHADOWED = "shadowed"
    NOT_IN_VERSION = "not_in_version"
    DOES_NOT_COUNT = "does_not_count"
    WHEN_NAMED = "when_named"
    NOT_VALID = "not_valid"
    NOT_ACCEPTED = "not_accepted"


@frozen
class Objects:
    """The objects sources read from, by the names the rules use.

    `runtime_resolved` is the runtime's spec merged with its chain (only when it
    has ancestors); `merged` is the InferenceService with the runtime's component
    configs merged in.
    """

    isvc: Any = None
    runtime: Any = None
    runtime_resolved: Any = None
    merged: Any = None
    named: bool = False
    fallback: Location = attrs.field(factory=lambda: Location("<input>"))


@frozen
class Reading:
    """What one source held, and what became of it (`why`: the explanation)."""

    source_id: str
    source_label: str
    path: str
    verdict: Verdict
    why: str
    value: Any = None
    location: Location | None = None
    origin: str | None = None


@frozen
class Resolution:
    """The mode one side gives one component, the source that gave it, and the trace."""

    purpose: str
    component: str
    mode: str | None
    source_label: str | None
    source_id: str | None
    readings: tuple[Reading, ...]
    effect: str | None = None

    @property
    def passed_over(self) -> tuple[Reading, ...]:
        """Sources that held a value but did not decide, with why."""
        return tuple(r for r in self.readings if r.verdict not in (Verdict.USED, Verdict.ABSENT))


def _read(plan: SourcePlan, objects: Objects) -> tuple[Any, Location | None, str | None]:
    """The raw value a source holds (paths.MISSING when none), where, and from which side."""
    source = plan.source
    if plan.path is None and not plan.present:
        return source.gives, None, None
    target = getattr(objects, source.object) if source.object else None
    if target is None:
        return paths.MISSING, None, None
    if plan.present:
        for segments in plan.present:
            if paths.lookup(target, segments) not in (paths.MISSING, None):
                # With no `gives`, the source only shows what it found (for the trace).
                value = source.gives if source.gives is not None else segments[-1]
                return (
                    value,
                    paths.value_location(target, segments, objects.fallback, key=True),
                    None,
                )
        return paths.MISSING, None, None
    assert plan.path is not None
    value = paths.lookup(target, plan.path)
    if value is None or value is paths.MISSING:
        # Nothing there, so no place to name (an absent reading shows none).
        return paths.MISSING, None, None
    origin = None
    if source.object == SourceObject.MERGED:
        # Say which side the merged value came from: the InferenceService's keys win.
        own = paths.lookup(objects.isvc, plan.path)
        origin = "isvc" if own not in (paths.MISSING, None) else "runtime"
        if origin == "runtime" and plan.runtime_path is not None:
            # Placed where the runtime writes it (its `{runtime_field}`).
            where = paths.value_location(objects.runtime, plan.runtime_path, objects.fallback)
            return value, (where if where != objects.fallback else None), origin
        target = objects.isvc if origin == "isvc" else objects.runtime
    if source.object == SourceObject.RUNTIME_RESOLVED:
        # Only what the runtime inherits counts here; its own value is the other source's.
        if paths.lookup(objects.runtime, plan.path) == value:
            return paths.MISSING, None, None
        origin = "inherited"
    return value, paths.value_location(target, plan.path, objects.fallback), origin


def resolve(policy: Policy, purpose: str, component: Component, objects: Objects) -> Resolution:
    """Walk `purpose`'s sources for `component` in precedence order."""
    readings: list[Reading] = []
    decided: Reading | None = None
    decided_by: str | None = None  # the words of the source that decided
    effect = None
    for plan in policy.plans(purpose, component.name):
        source = plan.source
        value, location, origin = _read(plan, objects)
        # A string or nothing is judged without the objects (`_judged` keeps it).
        judged_alone = value is paths.MISSING or type(value) is str
        if judged_alone and location is None and origin is None:
            # Nothing of where it was read: the same reading for every object.
            reading = _plain_reading(policy, plan, value, objects.named, decided_by)
        else:
            if judged_alone:
                verdict, why = _judged(policy, plan, value, objects.named, decided_by)
            else:
                verdict, why = _verdict(policy, plan, value, objects, decided_by, location)
            reading = _reading(plan, value, verdict, why, location, origin)
        verdict = reading.verdict
        readings.append(reading)
        if verdict == Verdict.USED:
            decided = readings[-1]
            decided_by = plan.words
            effect = source.effect
    return Resolution(
        purpose=purpose,
        component=component.name,
        mode=decided.value if decided else None,
        source_label=decided.source_label if decided else None,
        source_id=decided.source_id if decided else None,
        readings=tuple(readings),
        effect=effect,
    )


@functools.lru_cache(maxsize=16)  # bounded: a long-running program may make many policies
def _judgements(policy: Policy) -> dict[tuple, tuple[Verdict, str]]:
    return {}


def _judged(
    policy: Policy, plan: SourcePlan, value: Any, named: bool, decided_by: str | None
) -> tuple[Verdict, str]:
    """`_verdict` of a string or absent value, kept per policy: it reads only
    the plan, the value, whether the runtime is named and what decided (a
    fleet's InferenceServices hold a few values, read some 30,000 times)."""
    kept = _judgements(policy)
    # The policy holds its plans (`Policy.plans`) as long as this is kept: an id is theirs.
    key = (id(plan), value, named, decided_by)
    found = kept.get(key)
    if found is None:
        verdict = _verdict(policy, plan, value, Objects(named=named), decided_by, None)
        found = _remember(kept, key, verdict)
    return found


def _remember(kept: dict[tuple, Any], key: tuple, value: Any) -> Any:
    """Keep `value` under `key` in a per-policy store and give it back; the
    store's keys hold the inputs' values, so it is emptied at a bound."""
    if len(kept) >= 65536:
        kept.clear()
    kept[key] = value
    return value


@functools.lru_cache(maxsize=16)  # bounded as _judgements is
def _plain_readings(policy: Policy) -> dict[tuple, Reading]:
    return {}


def _plain_reading(
    policy: Policy, plan: SourcePlan, value: Any, named: bool, decided_by: str | None
) -> Reading:
    """The reading of a string or absent value with no place and no side (an
    absent source, a constant), kept per policy as `_judged` keeps verdicts:
    a reading is frozen, so one is shared by every object that reads so."""
    kept = _plain_readings(policy)
    key = (id(plan), value, named, decided_by)
    found = kept.get(key)
    if found is None:
        verdict, why = _judged(policy, plan, value, named, decided_by)
        found = _remember(kept, key, _reading(plan, value, verdict, why))
    return found


def _reading(
    plan: SourcePlan,
    value: Any,
    verdict: Verdict,
    why: str,
    location: Location | None = None,
    origin: str | None = None,
) -> Reading:
    """What `plan`'s source gave (`paths.MISSING`: nothing) and what was made of it."""
    return Reading(
        source_id=plan.source.id,
        source_label=plan.source.label,
        path=plan.where_text,
        verdict=verdict,
        why=why,
        value=None if value is paths.MISSING else value,
        location=location,
        origin=origin,
    )


def _verdict(
    policy: Policy,
    plan: SourcePlan,
    value: Any,
    objects: Objects,
    decided_by: str | None,
    location: Location | None,
) -> tuple[Verdict, str]:
    source = plan.source
    if value is paths.MISSING:
        return Verdict.ABSENT, policy.explanation("absent")
    if not isinstance(value, str):
        raise ModetableError(
            f"{plan.where_text} must be a string, got {describe(value)}",
            location or objects.fallback,
            code=ErrorCode.WRONG_TYPE,
        )
    shown = _shown(value)
    if not plan.in_force:
        return Verdict.NOT_IN_VERSION, policy.explanation(
            "not_in_version", value=shown, range=describe_range(source.since, source.until)
        )
    if source.counts == Counts.NEVER:
        return Verdict.DOES_NOT_COUNT, policy.explanation("does_not_count", value=shown)
    if source.counts == Counts.WHEN_NAMED and not objects.named:
        return Verdict.WHEN_NAMED, policy.explanation("when_named", value=shown)
    if decided_by is not None:
        # The source that decided, in an operator's words (its id is JSON's).
        return Verdict.SHADOWED, policy.explanation("shadowed", value=shown, source=decided_by)
    if not policy.is_mode(value):
        return Verdict.NOT_VALID, policy.explanation(
            "not_valid", value=shown, version=policy.release
        )
    if source.accepts is not None and value not in source.accepts:
        accepts = ", ".join(source.accepts)
        return Verdict.NOT_ACCEPTED, policy.explanation(
            "not_accepted", value=shown, accepts=accepts
        )
    return Verdict.USED, policy.explanation("used", mode=value, value=shown)


def _shown(value: str) -> str:
    """A value as the explanations quote it: an empty one, one with spaces around
    it or one with control characters in JSON quotes (else `: not a valid mode`
    reads as no value at all, and a newline would break the line)."""
    if value and value == value.strip() and value.isprintable():
        return value
    return json.dumps(value, ensure_ascii=False)
