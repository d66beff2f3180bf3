"""Made-up objects for the mode sources: the inputs a resolution reads, varied.

A purpose's sources read a few places (a value at a path of an object, or
whether any of some paths is set) and whether the InferenceService names the
runtime. Those are a resolution's inputs; here they become objects the engine
reads as it reads real manifests, so examples and the version diff run the
engine itself, not a copy of its rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from modetable.engine.modes import Objects, Resolution, resolve
from modetable.parsing import paths
from modetable.rules.policy import Policy
from modetable.rules.words import Counts, SourceObject
from modetable.settled import frozen

__all__ = [
    "NAMED",
    "PRESENT",
    "UNSET",
    "Slot",
    "domain",
    "objects",
    "resolve_values",
    "slots",
    "source_slot",
]

# A derived object holds its base object's values at the same paths (the base's
# keys win): the InferenceService's own keys win in `merged`; the runtime's own
# keys win over what it inherits in `runtime_resolved`.
_LAYERED_OVER = {
    SourceObject.MERGED: SourceObject.ISVC,
    SourceObject.RUNTIME_RESOLVED: SourceObject.RUNTIME,
}
PRESENT = "set"  # the value of a `present` input that holds something
UNSET = None


@frozen
class Slot:
    """One input of a resolution: a place the sources read, for one component."""

    object: str
    path: paths.Segments | None
    present: tuple[paths.Segments, ...] = ()
    sources: tuple[str, ...] = attrs.field(default=(), eq=False)
    labels: tuple[str, ...] = attrs.field(default=(), eq=False)

    @property
    def label(self) -> str:
        return "/".join(dict.fromkeys(self.labels))

    @property
    def where(self) -> str:
        if self.path is not None:
            return f"{self.object} {paths.render(self.path)}"
        return f"{self.object} " + " or ".join(paths.render(p) for p in self.present)


NAMED = Slot(object="named", path=None)  # whether the InferenceService names the runtime


def slots(policy: Policy, purpose: str, component: str, *, counting: bool = True) -> list[Slot]:
    """The places `purpose`'s sources read for `component`, in precedence order.

    With `counting`, places only sources that never count read are left out:
    they cannot change a resolution.
    """
    found: dict[Slot, Slot] = {}
    for plan in policy.plans(purpose, component):
        source = plan.source
        if source.object is None or (counting and source.counts == Counts.NEVER):
            continue
        slot = Slot(source.object, plan.path, plan.present)
        known = found.get(slot)
        found[slot] = Slot(
            slot.object,
            slot.path,
            slot.present,
            sources=(*(known.sources if known else ()), source.id),
            labels=(*(known.labels if known else ()), source.label),
        )
    result = list(found.values())
    if any(plan.source.counts == Counts.WHEN_NAMED for plan in policy.plans(purpose, component)):
        result.append(NAMED)
    return result


def source_slot(policy: Policy, purpose: str, component: str, source_id: str) -> Slot | None:
    """The input a source reads, for one component."""
    for slot in slots(policy, purpose, component, counting=False):
        if source_id in slot.sources:
            return slot
    return None


def objects(values: Mapping[Slot, Any]) -> Objects:
    """The objects holding `values` (a slot's value, `PRESENT`, or `UNSET`)."""
    built: dict[str, dict[str, Any]] = {}
    for slot, value in values.items():
        if slot == NAMED or value is UNSET:
            continue
        target = built.setdefault(slot.object, {})
        if slot.path is not None:
            built[slot.object] = paths.assign(target, slot.path, value)
        elif slot.present:
            built[slot.object] = paths.assign(target, slot.present[0], {})
    for derived, base in _LAYERED_OVER.items():
        for slot in values:
            if slot.object != derived or slot.path is None:
                continue
            own = paths.lookup(built.get(base, {}), slot.path)
            if own is not paths.MISSING:
                built[derived] = paths.assign(built.setdefault(derived, {}), slot.path, own)
    return Objects(
        isvc=built.get("isvc", {}),
        runtime=built.get("runtime"),
        runtime_resolved=built.get("runtime_resolved"),
        merged=built.get("merged", built.get("isvc", {})),
        named=bool(values.get(NAMED)),
    )


def resolve_values(
    policy: Policy, purpose: str, component: str, values: Mapping[Slot, Any]
) -> Resolution:
    return resolve(policy, purpose, policy.components_by_name[component], objects(values))


def domain(slot: Slot, modes: Iterable[str]) -> list[Any]:
    """The values an input takes: unset and each mode; set or unset; named or not."""
    if slot == NAMED:
        return [False, True]
    if slot.path is None:
        return [UNSET, PRESENT]
    return [UNSET, *modes]
