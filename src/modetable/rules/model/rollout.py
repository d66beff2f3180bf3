"""The rollout groups' fields and OME's texts for the rollout kinds of
admission check (`admission[].rollout`, `canary`, `coordination`, ...).
"""

from __future__ import annotations

from typing import Annotated

import attrs

from modetable.rules.kinds import Ref
from modetable.rules.model.names import ComponentName
from modetable.settled import frozen

__all__ = [
    "Bounds",
    "BudgetMessages",
    "CanaryMessages",
    "CoordinationMessages",
    "OrderingMessages",
    "RolloutFields",
    "SoakMessages",
]


@frozen
class RolloutFields:
    """Where an InferenceService's rollout groups are (`groups`, a path) and
    what a group's fields, a canary plan's and a step's are called (OME's
    RolloutGroup, GroupCanary, RolloutGroupStep, RolloutAnalysis). A group's
    progression is its inline `canary`, `blue_green` or `rolling_update`, else
    its `policy_ref`'s `progression`, else blueGreen; `canary_word`,
    `blue_green_word` and `rolling_update_word` are how a policyRef (and OME)
    names each progression. `units`: a component that rolls in another's
    canary unit (the decoder in the engine's)."""

    groups: str
    components: str
    order: str
    canary: str
    blue_green: str
    rolling_update: str
    policy_ref: str
    progression: str
    canary_word: str
    blue_green_word: str
    rolling_update_word: str
    maintain_ratio: str
    steps: str
    ready_timeout: str
    capacity: str
    traffic: str
    analysis: str
    interval: str
    failure_limit: str
    metrics: str
    metric_name: str
    query: str
    threshold: str
    operator: str
    operators: tuple[str, ...]
    percent: str
    full_traffic: int
    # A rollingUpdate group's budgets, in the order OME checks them
    # (maxSurge, maxUnavailable); a maintainRatio's tolerance; a group's soak.
    budgets: tuple[str, ...]
    tolerance: str
    soak: str
    # spec.rollout.groupOrdering (a path), and the value under which the
    # groups' list order promises nothing.
    group_ordering: str
    concurrent: str
    units: dict[ComponentName, ComponentName] = attrs.Factory(dict)


_GROUP = ("group",)
_STEP = ("group", "step")
_METRIC = ("group", "step", "metric", "name")


@frozen
class CanaryMessages:
    """The texts of OME's ValidateCanary, by what each says (admission/rollout.py)."""

    multiple_groups: Annotated[str, Ref("message", params=("unit", "first", "group"))]
    steps_empty: Annotated[str, Ref("message", params=_GROUP)]
    interval: Annotated[str, Ref("message", params=_STEP)]
    failure_limit: Annotated[str, Ref("message", params=_STEP)]
    metrics_required: Annotated[str, Ref("message", params=_STEP)]
    metric_name_empty: Annotated[str, Ref("message", params=_METRIC)]
    metric_duplicate: Annotated[str, Ref("message", params=_METRIC)]
    query_empty: Annotated[str, Ref("message", params=_METRIC)]
    threshold: Annotated[str, Ref("message", params=(*_METRIC, "threshold"))]
    operator: Annotated[str, Ref("message", params=(*_METRIC, "operator"))]
    ready_timeout: Annotated[str, Ref("message", params=_GROUP)]
    final_traffic: Annotated[str, Ref("message", params=("group", "traffic"))]
    capacity: Annotated[str, Ref("message", params=(*_STEP, "problem"))]
    capacity_negative: Annotated[str, Ref("message", params=("value",))]
    capacity_not_percent: Annotated[str, Ref("message", params=("value",))]
    capacity_bad_percent: Annotated[str, Ref("message", params=("value",))]
    capacity_negative_percent: Annotated[str, Ref("message", params=("value",))]
    capacity_over_full: Annotated[str, Ref("message", params=("value",))]
    traffic_range: Annotated[str, Ref("message", params=(*_STEP, "traffic"))]
    traffic_decreasing: Annotated[str, Ref("message", params=(*_STEP, "traffic", "previous"))]
    zero_capacity: Annotated[str, Ref("message", params=(*_STEP, "capacity", "traffic"))]
    final_capacity: Annotated[str, Ref("message", params=(*_STEP, "capacity"))]
    member_invalid: Annotated[str, Ref("message", params=("group", "component"))]
    member_undeclared: Annotated[str, Ref("message", params=("group", "component"))]
    requires_mode: Annotated[str, Ref("message", params=("group", "component", "mode"))]
    entrypoint: Annotated[str, Ref("message", params=("group", "unit"))]
    unit_split: Annotated[str, Ref("message", params=_GROUP)]
    maintain_ratio: Annotated[str, Ref("message", params=_GROUP)]


@frozen
class CoordinationMessages:
    """The texts of OME's ValidateCoordination up to its mode check, by what each says."""

    member_invalid: Annotated[str, Ref("message", params=("group", "component"))]
    order_not_member: Annotated[str, Ref("message", params=("group", "component"))]
    order_duplicate: Annotated[str, Ref("message", params=("group", "component"))]
    duplicate_member: Annotated[str, Ref("message", params=("component", "first", "group"))]
    orphans: Annotated[str, Ref("message", params=("group", "components"))]
    orphan: Annotated[str, Ref("message", params=("component",))]
    orphan_separator: str
    requires_mode: Annotated[str, Ref("message", params=("group", "component", "mode"))]


_BUDGET = ("group", "budget", "value")


@frozen
class BudgetMessages:
    """The texts of OME's validateBudgetIntOrString on a rollingUpdate group's
    budget (`{budget}`: its field's name), by what each says."""

    negative: Annotated[str, Ref("message", params=_BUDGET)]
    not_percent: Annotated[str, Ref("message", params=_BUDGET)]
    malformed_percent: Annotated[str, Ref("message", params=_BUDGET)]
    percent_range: Annotated[str, Ref("message", params=_BUDGET)]


@frozen
class Bounds:
    """The integers a value must stay within (`min`, `max`; either may be open)."""

    min: int | None = None
    max: int | None = None


@frozen
class SoakMessages:
    """The texts of OME's validateSoakOnlyWhenSequenced, by what each says."""

    canary: Annotated[str, Ref("message", params=_GROUP)]
    not_sequenced: Annotated[str, Ref("message", params=_GROUP)]


@frozen
class OrderingMessages:
    """The texts of OME's ValidateRolloutOrderingEnforced: a group's `order`,
    then a list of groups whose order would be dropped (`{shape}`: what the
    first group that breaks the sequence is, one of the shapes)."""

    order: Annotated[str, Ref("message", params=_GROUP)]
    group_ordering: Annotated[str, Ref("message", params=("group", "shape"))]
    canary_shape: Annotated[str, Ref("message", params=())]
    rolling_update_shape: Annotated[str, Ref("message", params=())]
    multi_component_shape: Annotated[str, Ref("message", params=())]
