"""The matching rule: the decision table, and a runtime matched against an
InferenceService component by component."""

from __future__ import annotations

import functools
from collections.abc import Callable

from modetable.engine.modes import Objects, Resolution, resolve
from modetable.engine.runtimes import InheritanceError, resolve_chain
from modetable.errors import ModetableError
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing import paths
from modetable.rules.model.matching import Row, RowCondition
from modetable.rules.model.modes import Component
from modetable.rules.policy import Policy
from modetable.rules.words import Compared, ConditionWord, HitPolicy, Purpose
from modetable.settled import frozen

__all__ = [
    "CONDITIONS",
    "ComponentMatch",
    "RuntimeMatch",
    "decide",
    "declares",
    "match_component",
    "match_runtime",
    "requested_modes",
    "row_matches",
    "runtime_objects",
]

# The condition words of the table (rules/modes.yaml, matching), each with
# what it means: whether one input's `value` meets it, `other` being the other
# input.
CONDITIONS: dict[ConditionWord, Callable[[str | None, str | None], bool]] = {
    ConditionWord.ANY: lambda value, other: True,
    ConditionWord.NONE: lambda value, other: value is None,
    ConditionWord.MODE: lambda value, other: value is not None,
    ConditionWord.SAME: lambda value, other: value is not None and value == other,
    ConditionWord.DIFFERENT: (
        lambda value, other: value is not None and other is not None and value != other
    ),
}


def _condition_holds(condition: RowCondition, value: str | None, other: str | None) -> bool:
    """Whether one input's `value` meets `condition`; `other` is the other input.
    A condition is a word, a list of modes, or one mode."""
    if isinstance(condition, tuple):
        return value in condition
    holds = CONDITIONS.get(condition)
    return holds(value, other) if holds is not None else value == condition


def row_matches(row: Row, requested: str | None, declared: str | None) -> bool:
    return _condition_holds(row.requested, requested, declared) and _condition_holds(
        row.declared, declared, requested
    )


def _hits(rows: tuple[Row, ...], requested: str | None, declared: str | None) -> list[Row]:
    return [row for row in rows if row_matches(row, requested, declared)]


def decide(policy: Policy, requested: str | None, declared: str | None) -> Row:
    """The row that decides, under the table's hit policy."""
    matched = _hits(policy.rows, requested, declared)
    policy_name = policy.rules.matching.hit_policy
    if not matched:
        raise ModetableError(
            f"the matching table has no row for requested={requested or 'none'}, "
            f"declared={declared or 'none'} ({policy.release})"
        )
    if policy_name == HitPolicy.UNIQUE and len(matched) > 1:
        ids = ", ".join(r.id for r in matched)
        raise ModetableError(f"the matching table's rows {ids} overlap (hit policy UNIQUE)")
    if policy_name == HitPolicy.ANY and len({r.outcome for r in matched}) > 1:
        ids = ", ".join(r.id for r in matched)
        raise ModetableError(f"the matching table's rows {ids} disagree (hit policy ANY)")
    return matched[0]


def _is_compared(component: Component, isvc: Manifest | None, policy: Policy) -> bool:
    """Engine always, decoder only when the InferenceService declares it, router never."""
    if component.compared == Compared.ALWAYS:
        return True
    if component.compared == Compared.NEVER or isvc is None:
        return False
    return declares(policy, isvc, component)


def declares(policy: Policy, isvc: Manifest, component: Component) -> bool:
    """Whether the InferenceService has `spec.<component>` (an empty mapping counts)."""
    found = policy.merge_paths.get(component.name)
    if found is None or policy.components_by_name[component.name] is not component:
        into = policy.component_path(component, policy.rules.running_merge.into)
    else:
        into = found[0]
    return isinstance(paths.lookup(isvc.body, into), dict)


@frozen
class ComponentMatch:
    component: str
    requested: Resolution
    declared: Resolution
    row: str
    outcome: str
    reason: str | None


@frozen
class RuntimeMatch:
    """A runtime against an InferenceService on the mode rule alone."""

    runtime: Manifest
    named: bool
    components: tuple[ComponentMatch, ...]

    @property
    def rejection(self) -> ComponentMatch | None:
        """The first compared component that rejects (engine before decoder)."""
        return next((c for c in self.components if c.outcome != "pass"), None)

    @property
    def passed(self) -> bool:
        return self.rejection is None

    @property
    def reason(self) -> str | None:
        rejection = self.rejection
        return rejection.reason if rejection else None


def match_component(
    policy: Policy, component: Component, requested: Resolution, declared: Resolution
) -> ComponentMatch:
    row = decide(policy, requested.mode, declared.mode)
    reason = None
    if row.message is not None:
        reason = policy.message(
            row.message,
            component=component.name,
            runtime_mode=declared.mode or "",
            isvc_mode=requested.mode or "",
        )
    return ComponentMatch(
        component=component.name,
        requested=requested,
        declared=declared,
        row=row.id,
        outcome=row.outcome,
        reason=reason,
    )


def requested_modes(policy: Policy, isvc: Manifest) -> dict[str, Resolution]:
    """What the InferenceService asks for, per compared component: one dict for
    the same policy and object while it is kept (selection and the audit's
    findings ask in turn), which no caller changes."""
    return _requested(policy, isvc)


# Kept for the few objects asked about last: an InferenceService's outcome and
# its findings read it one after the other.
@functools.lru_cache(maxsize=8)
def _requested(policy: Policy, isvc: Manifest) -> dict[str, Resolution]:
    objects = Objects(isvc=isvc.body, fallback=isvc.location)
    return {
        c.name: resolve(policy, Purpose.REQUESTED, c, objects)
        for c in policy.components
        if _is_compared(c, isvc, policy)
    }


def runtime_objects(policy: Policy, cluster: Cluster, runtime: Manifest, named: bool) -> Objects:
    """The runtime as the declared-mode sources read it.

    Its chain is resolved when it has ancestors; a broken chain matters only for a
    named runtime (OME uses the merged spec only then), so otherwise it is ignored.
    """
    resolved = None
    try:
        chain = resolve_chain(policy, cluster, runtime)
        if len(chain.runtimes) > 1:
            resolved = {"spec": chain.spec}
    except InheritanceError:
        if named:
            raise
    return Objects(
        runtime=runtime.body, runtime_resolved=resolved, named=named, fallback=runtime.location
    )


def match_runtime(
    policy: Policy,
    cluster: Cluster,
    isvc: Manifest,
    runtime: Manifest,
    named: bool,
    requested: dict[str, Resolution] | None = None,
) -> RuntimeMatch:
    """The runtime against the InferenceService, engine first, then decoder."""
    requested = requested if requested is not None else requested_modes(policy, isvc)
    objects = runtime_objects(policy, cluster, runtime, named)
    components = []
    for component in policy.components:
        if component.name not in requested:
            continue
        declared = resolve(policy, Purpose.DECLARED, component, objects)
        components.append(match_component(policy, component, requested[component.name], declared))
    return RuntimeMatch(runtime=runtime, named=named, components=tuple(components))
