"""The rollout groups' checks over spec.rollout.groups[]: OME's ValidateCanary
(`canary`); ValidateCoordination up to its mode check (`coordination`), then
the rest of it (`rolling_update_budgets`, `ratio_tolerance`, `zero_budget`,
`soak`); the ratio tolerance warning after it (`ratio_tolerance` again); and
ValidateRolloutOrderingEnforced (`rollout_ordering`). Every sub-check runs in
OME's order, so that the first error is OME's.

The field names are the rules' (`rollout`), the texts the rules' messages (the
check's `canary`, `coordination`, `budgets`, `soak`, `ordering` or `message`),
the modes a member must have its `values`, read raw from `mode_sources`. What
the rules cannot say is here: the walk itself, and Go's reading of durations,
capacities, budgets and numbers.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from modetable.admission.fields import Reader
from modetable.engine.matching import declares
from modetable.inputs.manifests import Manifest
from modetable.parsing.go import go_duration_nanoseconds, go_parses_float
from modetable.rules.model.admission import AdmissionRule
from modetable.rules.model.rollout import (
    BudgetMessages,
    CanaryMessages,
    CoordinationMessages,
    RolloutFields,
)
from modetable.rules.policy import Policy
from modetable.settled import frozen

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "Group",
    "budget_problem",
    "canary_problem",
    "coordination_problem",
    "groups_of",
    "ordering_problem",
    "soak_problem",
    "tolerance_problem",
    "zero_budget_problem",
]


@frozen
class Group:
    """One rollout group as the webhook reads it (absent lists are empty)."""

    index: int
    body: dict[str, Any]
    components: tuple[str, ...]
    order: tuple[str, ...]
    kind: str  # canary, blueGreen or rollingUpdate

    def units(self, fields: RolloutFields) -> tuple[str, ...]:
        """The canary units the group touches, in member order (OME's CanaryUnitsOf)."""
        return tuple(dict.fromkeys(fields.units.get(c, c) for c in self.components))


def groups_of(fields: RolloutFields, isvc: Manifest) -> list[Group]:
    """spec.rollout.groups[], each with its progression kind."""
    listed = _at(isvc.body, fields.groups)
    found = []
    for index, body in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(body, dict):
            continue
        found.append(
            Group(
                index=index,
                body=body,
                components=tuple(_strings(body.get(fields.components))),
                order=tuple(_strings(body.get(fields.order))),
                kind=_kind(fields, body),
            )
        )
    return found


def _kind(fields: RolloutFields, body: dict[str, Any]) -> str:
    """A group's progression, as OME's rolloutGroupKind gives it: its inline
    arm, else its policyRef's progression as written, else blueGreen."""
    if body.get(fields.canary) is not None:
        return fields.canary_word
    if body.get(fields.blue_green) is not None:
        return fields.blue_green_word
    if body.get(fields.rolling_update) is not None:
        return fields.rolling_update_word
    ref = body.get(fields.policy_ref)
    if isinstance(ref, dict):
        return str(ref.get(fields.progression) or "")
    return fields.blue_green_word


def _at(body: Any, path: str) -> Any:
    node = body
    for segment in _segments(path):
        node = node.get(segment) if isinstance(node, dict) else None
    return node


# The rules' few paths, each split once: every rollout check of every
# InferenceService reads its groups.
@functools.lru_cache(maxsize=64)
def _segments(path: str) -> tuple[str, ...]:
    return tuple(path.split("."))


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _modes(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> dict[str, str]:
    """Each declared component's mode, read raw (OME's omenativeDeploymentModeMap)."""
    return {
        c.name: Reader(policy, isvc, c.name).first_filled(rule.mode_sources)
        for c in policy.components
        if declares(policy, isvc, c)
    }


# --- ValidateCanary ----------------------------------------------------------------


def canary_problem(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """The first of ValidateCanary's errors, or None."""
    fields, texts = rule.rollout, rule.canary
    assert fields is not None and texts is not None  # the rules' validation requires them
    canary_groups = [g for g in groups_of(fields, isvc) if g.kind == fields.canary_word]
    if not canary_groups:
        return None
    declared = {c.name for c in policy.components if declares(policy, isvc, c)}
    known = {c.name for c in policy.components}
    modes = _modes(policy, rule, isvc)
    owner: dict[str, int] = {}
    for group in canary_groups:
        for unit in group.units(fields):
            if unit in owner:
                return policy.message(
                    texts.multiple_groups, unit=unit, first=owner[unit], group=group.index
                )
            owner[unit] = group.index
    for group in canary_groups:
        plan = group.body.get(fields.canary)
        if isinstance(plan, dict):
            found = _plan_problem(policy, fields, texts, group.index, plan)
            if found is not None:
                return found
        for component in group.components:
            if component not in known:
                return policy.message(texts.member_invalid, group=group.index, component=component)
            if component not in declared:
                return policy.message(
                    texts.member_undeclared, group=group.index, component=component
                )
            mode = modes.get(component)
            if mode is not None and mode not in rule.values:
                return policy.message(
                    texts.requires_mode, group=group.index, component=component, mode=mode
                )
        members = set(group.components)
        for unit in group.units(fields):
            if unit not in members:
                return policy.message(texts.entrypoint, group=group.index, unit=unit)
        for member, unit in fields.units.items():
            if member in declared and unit in declared and (member in members) != (unit in members):
                return policy.message(texts.unit_split, group=group.index)
        if group.body.get(fields.maintain_ratio) is not None:
            return policy.message(texts.maintain_ratio, group=group.index)
    return None


def _plan_problem(
    policy: Policy,
    fields: RolloutFields,
    texts: CanaryMessages,
    group: int,
    plan: dict[str, Any],
) -> str | None:
    """ValidateCanaryPlan on an inline plan."""
    steps = [s if isinstance(s, dict) else {} for s in _list(plan.get(fields.steps))]
    if not steps:
        return policy.message(texts.steps_empty, group=group)
    for index, step in enumerate(steps):
        analysis = step.get(fields.analysis)
        if not isinstance(analysis, dict):
            continue
        at = {"group": group, "step": index}
        if _duration(analysis, fields.interval) <= 0:
            return policy.message(texts.interval, **at)
        if _integer(analysis.get(fields.failure_limit)) < 1:
            return policy.message(texts.failure_limit, **at)
        metrics = _list(analysis.get(fields.metrics))
        if not metrics:
            return policy.message(texts.metrics_required, **at)
        found = _metrics_problem(policy, fields, texts, at, metrics)
        if found is not None:
            return found
    if plan.get(fields.ready_timeout) is not None and _duration(plan, fields.ready_timeout) <= 0:
        return policy.message(texts.ready_timeout, group=group)
    last = _integer(steps[-1].get(fields.traffic))
    if last != fields.full_traffic:
        return policy.message(texts.final_traffic, group=group, traffic=last)
    previous = 0
    for index, step in enumerate(steps):
        at = {"group": group, "step": index}
        capacity = step.get(fields.capacity)
        capacity = 0 if capacity is None else capacity
        value, percent, problem = _capacity(policy, fields, texts, capacity)
        if problem is not None:
            return policy.message(texts.capacity, **at, problem=problem)
        traffic = _integer(step.get(fields.traffic))
        if traffic < 0 or traffic > fields.full_traffic:
            return policy.message(texts.traffic_range, **at, traffic=traffic)
        if traffic < previous:
            return policy.message(
                texts.traffic_decreasing, **at, traffic=traffic, previous=previous
            )
        previous = traffic
        shown = str(capacity)
        if traffic > 0 and value == 0:
            return policy.message(texts.zero_capacity, **at, capacity=shown, traffic=traffic)
        if index == len(steps) - 1 and percent and value != fields.full_traffic:
            return policy.message(texts.final_capacity, **at, capacity=shown)
    return None


def _metrics_problem(
    policy: Policy,
    fields: RolloutFields,
    texts: CanaryMessages,
    at: dict[str, int],
    metrics: list[Any],
) -> str | None:
    """validateAnalysisMetrics: each metric named once, with a query, a numeric
    threshold and a known operator."""
    seen: set[str] = set()
    for index, metric in enumerate(metrics):
        metric = metric if isinstance(metric, dict) else {}
        name = _text(metric.get(fields.metric_name))
        here = {**at, "metric": index, "name": name}
        if name == "":
            return policy.message(texts.metric_name_empty, **here)
        if name in seen:
            return policy.message(texts.metric_duplicate, **here)
        seen.add(name)
        if _text(metric.get(fields.query)).strip(_GO_SPACE) == "":
            return policy.message(texts.query_empty, **here)
        threshold = _text(metric.get(fields.threshold))
        if not go_parses_float(threshold):
            return policy.message(texts.threshold, **here, threshold=threshold)
        operator = _text(metric.get(fields.operator))
        if operator not in fields.operators:
            return policy.message(texts.operator, **here, operator=operator)
    return None


# strings.TrimSpace: Unicode white space (the ASCII ones, U+0085, U+00A0 and
# the Unicode space separators).
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _capacity(
    policy: Policy, fields: RolloutFields, texts: CanaryMessages, capacity: Any
) -> tuple[int, bool, str | None]:
    """OME's parseCanaryCapacity: (value, is a percentage, problem or None)."""
    if isinstance(capacity, int) and not isinstance(capacity, bool):
        if capacity < 0:
            return 0, False, policy.message(texts.capacity_negative, value=capacity)
        return capacity, False, None
    raw = _text(capacity)
    if not raw.endswith(fields.percent):
        return 0, False, policy.message(texts.capacity_not_percent, value=raw)
    number = _go_atoi(raw[: -len(fields.percent)])
    if number is None:
        return 0, True, policy.message(texts.capacity_bad_percent, value=raw)
    if number < 0:
        return 0, True, policy.message(texts.capacity_negative_percent, value=raw)
    if number > fields.full_traffic:
        return 0, True, policy.message(texts.capacity_over_full, value=raw)
    return number, True, None


def _go_atoi(text: str) -> int | None:
    """strconv.Atoi: an optional sign and ASCII digits, within int64."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        return None
    value = int(text)
    return value if -(2**63) <= value < 2**63 else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _integer(value: Any) -> int:
    """An integer field as Go reads it: absent is 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _duration(holder: dict[str, Any], key: str) -> Fraction:
    """A metav1.Duration field (checked at load: check_rollout_fields): absent is 0."""
    value = holder.get(key)
    found = go_duration_nanoseconds(value) if isinstance(value, str) else None
    return found if found is not None else _zero()


def _zero() -> Fraction:
    # fractions (with decimal) is imported only when a rollout is read: every
    # command imports this module.
    from fractions import Fraction

    return Fraction(0)


# --- ValidateCoordination ------------------------------------------------------------


def coordination_problem(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """The first of ValidateCoordination's errors up to its mode check, or None."""
    fields, texts = rule.rollout, rule.coordination
    assert fields is not None and texts is not None  # the rules' validation requires them
    groups = groups_of(fields, isvc)
    if not groups:
        return None
    known = {c.name for c in policy.components}
    declared = {c.name for c in policy.components if declares(policy, isvc, c)}
    for group in (g for g in groups if g.kind != fields.canary_word):
        for component in group.components:
            if component not in known:
                return policy.message(texts.member_invalid, group=group.index, component=component)
        found = _order_problem(policy, texts, group)
        if found is not None:
            return found
    first: dict[str, int] = {}
    for group in groups:
        for component in group.components:
            if component in first:
                return policy.message(
                    texts.duplicate_member,
                    component=component,
                    first=first[component],
                    group=group.index,
                )
            first[component] = group.index
    for group in groups:
        missing = [c for c in group.components if c not in declared]
        if missing:
            listed = texts.orphan_separator.join(
                policy.message(texts.orphan, component=c) for c in missing
            )
            return policy.message(texts.orphans, group=group.index, components=listed)
    modes = _modes(policy, rule, isvc)
    for group in (g for g in groups if g.kind != fields.canary_word):
        for component in group.components:
            mode = modes.get(component, "")
            if mode not in rule.values:
                return policy.message(
                    texts.requires_mode, group=group.index, component=component, mode=mode
                )
    return None


def _order_problem(policy: Policy, texts: CoordinationMessages, group: Group) -> str | None:
    """validateOrderSubset: `order` names only members, each once."""
    seen: set[str] = set()
    for component in group.order:
        if component not in group.components:
            return policy.message(texts.order_not_member, group=group.index, component=component)
        if component in seen:
            return policy.message(texts.order_duplicate, group=group.index, component=component)
        seen.add(component)
    return None


# --- the rest of ValidateCoordination, and the ratio tolerance warning after it --------


def budget_problem(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """validateGroupRollingUpdateBudgets: each rollingUpdate group's budgets, in
    order, a count of 0 or more or a percentage from 0% to 100%."""
    fields, texts = rule.rollout, rule.budgets
    assert fields is not None and texts is not None  # the rules' validation requires them
    for group in groups_of(fields, isvc):
        budgets = group.body.get(fields.rolling_update)
        if not isinstance(budgets, dict):
            continue
        for name in fields.budgets:
            found = _budget_text(policy, fields, texts, group.index, name, budgets.get(name))
            if found is not None:
                return found
    return None


def _budget_text(
    policy: Policy,
    fields: RolloutFields,
    texts: BudgetMessages,
    group: int,
    name: str,
    value: Any,
) -> str | None:
    """validateBudgetIntOrString on one budget (absent: the default, fine)."""
    if value is None:
        return None
    at = {"group": group, "budget": name, "value": value}
    if isinstance(value, int):
        return policy.message(texts.negative, **at) if value < 0 else None
    raw = _text(value)
    if not raw.endswith(fields.percent):
        return policy.message(texts.not_percent, **at)
    number = _go_atoi(raw[: -len(fields.percent)])
    if number is None:
        return policy.message(texts.malformed_percent, **at)
    if number < 0 or number > fields.full_traffic:
        return policy.message(texts.percent_range, **at)
    return None


def tolerance_problem(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """The first group (of any progression) whose maintainRatio tolerance is
    set and outside the rule's `bounds`: OME's validateRatioToleranceRange, or
    its CoordinationRatioToleranceWarning."""
    fields, bounds = rule.rollout, rule.bounds
    assert fields is not None and bounds is not None  # the rules' validation requires them
    for group in groups_of(fields, isvc):
        ratio = group.body.get(fields.maintain_ratio)
        tolerance = ratio.get(fields.tolerance) if isinstance(ratio, dict) else None
        if not isinstance(tolerance, int):
            continue
        below = bounds.min is not None and tolerance < bounds.min
        above = bounds.max is not None and tolerance > bounds.max
        if below or above:
            limit = bounds.min if below else bounds.max
            return policy.message(
                rule.message or "", group=group.index, tolerance=tolerance, limit=limit
            )
    return None


def zero_budget_problem(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """validatePacingNotZeroBudget: a rollingUpdate group whose budgets both
    resolve to zero (an absent budget is the default, not zero)."""
    fields = rule.rollout
    assert fields is not None  # the rules' validation requires it
    for group in groups_of(fields, isvc):
        budgets = group.body.get(fields.rolling_update)
        if not isinstance(budgets, dict):
            continue
        if all(_resolves_to_zero(fields, budgets.get(name)) for name in fields.budgets):
            return policy.message(rule.message or "", group=group.index)
    return None


def _resolves_to_zero(fields: RolloutFields, value: Any) -> bool:
    """OME's budgetResolvesToZero: a count of 0 or less, a string that is not a
    percentage, or a percentage that does not parse or is 0 or less."""
    if value is None:
        return False
    if isinstance(value, int):
        return value <= 0
    raw = _text(value)
    if not raw.endswith(fields.percent):
        return True
    number = _go_atoi(raw[: -len(fields.percent)])
    return number is None or number <= 0


def soak_problem(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """validateSoakOnlyWhenSequenced: a soak only where OME honors it, on a
    group of a sequence (the non-canary groups, two or more, each a
    single-component blueGreen group)."""
    fields, texts = rule.rollout, rule.soak
    assert fields is not None and texts is not None  # the rules' validation requires them
    groups = groups_of(fields, isvc)
    sequenced = _collapses_to_sequence(fields, groups)
    for group in groups:
        if group.body.get(fields.soak) is None:
            continue
        if group.kind == fields.canary_word:
            return policy.message(texts.canary, group=group.index)
        if not sequenced:
            return policy.message(texts.not_sequenced, group=group.index)
    return None


def _collapses_to_sequence(fields: RolloutFields, groups: list[Group]) -> bool:
    """OME's rolloutCollapsesToSequential: two or more non-canary groups, every
    one a blueGreen group of one component."""
    others = [g for g in groups if g.kind != fields.canary_word]
    single = all(len(g.components) == 1 and g.kind == fields.blue_green_word for g in others)
    return single and len(others) >= 2


# --- ValidateRolloutOrderingEnforced (on a CREATE, after every other check) -------------


def ordering_problem(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """No group sets `order` (no progression applies it); and unless
    spec.rollout.groupOrdering is Concurrent, two or more groups form a
    sequence alone, whose list order OME enforces."""
    fields, texts = rule.rollout, rule.ordering
    assert fields is not None and texts is not None  # the rules' validation requires them
    groups = groups_of(fields, isvc)
    for group in groups:
        if group.order:
            return policy.message(texts.order, group=group.index)
    if len(groups) < 2 or _at(isvc.body, fields.group_ordering) == fields.concurrent:
        return None
    for group in groups:
        if group.kind == fields.canary_word:
            shape = texts.canary_shape
        elif group.kind == fields.rolling_update_word:
            shape = texts.rolling_update_shape
        elif len(group.components) != 1:
            shape = texts.multi_component_shape
        else:
            continue
        return policy.message(texts.group_ordering, group=group.index, shape=policy.message(shape))
    return None
