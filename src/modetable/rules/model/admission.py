"""The `admission:` and `admission_stages:` sections: the checks an
InferenceService passes on create, in order (the rollout groups' fields and
texts are in `rollout`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

import attrs

from modetable.rules.kinds import Defines, Ref
from modetable.rules.model.names import ComponentName, KindName, ModeName, PathTemplate, SourceId
from modetable.rules.model.rollout import (
    Bounds,
    BudgetMessages,
    CanaryMessages,
    CoordinationMessages,
    OrderingMessages,
    RolloutFields,
    SoakMessages,
)
from modetable.rules.words import AdmissionCheck, AdmissionEmit, Stage, TestWord
from modetable.settled import frozen

__all__ = [
    "CHECK_BUILTINS",
    "STAGE_PARAMS",
    "AdmissionRule",
    "CheckCase",
    "CheckValue",
    "FieldTest",
    "TestValue",
    "Undecided",
]

# What the engine passes each admission stage's wrapper (admission/engine.py):
# the contract its placeholders are checked against.
STAGE_PARAMS: Mapping[str, tuple[str, ...]] = {
    word.value: ("kind", "name", "message") for word in Stage
}


def _admission_message_params(rule: Mapping[str, Any]) -> tuple[str, ...]:
    """allowed_values passes the value and the supported list; agree_when_any
    passes each component's requested mode under the component's name."""
    if rule.get("check") == AdmissionCheck.ALLOWED_VALUES:
        return ("value", "supported")
    if rule.get("check") in (AdmissionCheck.SELECTION, AdmissionCheck.FIELDS):
        return ()
    if rule.get("check") == AdmissionCheck.MODEL_EXISTS:
        return ("model", "namespace")
    if rule.get("check") == AdmissionCheck.RATIO_TOLERANCE:
        return ("group", "tolerance", "limit")
    if rule.get("check") == AdmissionCheck.ZERO_BUDGET:
        return ("group",)
    components = rule.get("components") or ()
    return tuple(c for c in components if isinstance(c, str))


# What every `fields` check passes its messages and patterns: the component of
# `each`, and the InferenceService's namespace and name.
CHECK_BUILTINS = ("component", "namespace", "name")


def _case_message_params(case: Mapping[str, Any]) -> tuple[str, ...]:
    """A case passes its message the built-in values and its own `values`."""
    values = case.get("values")
    named = tuple(k for k in values if isinstance(k, str)) if isinstance(values, dict) else ()
    return (*CHECK_BUILTINS, *named)


# A value a test compares with (`to`): as YAML writes it.
TestValue = bool | int | str


@frozen
class FieldTest:
    """One test on the InferenceService (`is`: admission/fields.py, TESTS).

    It reads the value at `field` (a path; `{placeholders}` of the component
    under test; a `*` segment is any item of a list, and the test holds when it
    holds for any), or the first of `sources` holding a non-empty string, as
    written (OME's raw read of a mode). `to` is the value compared with, `other`
    a second field compared with, `pattern` a regular expression the whole
    value must not match (`unlike`; `{placeholders}` filled, escaped).
    """

    test: TestWord = attrs.field(metadata={"yaml_key": "is"})
    field: PathTemplate | None = None
    sources: tuple[SourceId, ...] = ()
    to: TestValue | None = None
    other: PathTemplate | None = None
    pattern: str | None = None


@frozen
class CheckValue:
    """A value a case passes its message: read at `field` (an integer printed as
    a number, a missing field as ""), the first of `sources` holding a non-empty
    string (as written), or the template `text` (filled with the other values)."""

    field: PathTemplate | None = None
    sources: tuple[SourceId, ...] = ()
    text: str | None = None


@frozen
class CheckCase:
    """One way a `fields` check fails: when every test of `when` holds, the
    check gives `message`, passed the built-in values and `values`."""

    when: tuple[FieldTest, ...]
    message: Annotated[str, Ref("message", params=_case_message_params)]
    values: dict[str, CheckValue] = attrs.Factory(dict)


@frozen
class Undecided:
    """When a check's answer depends on the cluster's configuration, which
    modetable cannot see: when any test of `when` holds, or (a selection
    check) when selection's outcome is one of `outcomes`, and the checks of
    `after` ran, the check is not run and the InferenceService's output says
    `why`."""

    why: Annotated[str, Ref("message", params=())]
    when: tuple[FieldTest, ...] = ()
    outcomes: tuple[Annotated[str, Ref("selection outcome")], ...] = ()
    # Only when these checks ran before (and so passed): in a version without
    # them, the check is run as it is.
    after: tuple[Annotated[str, Ref("admission check")], ...] = ()


@frozen
class AdmissionRule:
    """One admission check, run in the list's order (admission/kinds.py says
    what each kind of `check` does with the fields it uses)."""

    id: Annotated[str, Defines("admission check")]
    stage: Stage
    check: AdmissionCheck
    message: Annotated[str, Ref("message", params=_admission_message_params)] | None = None
    emit: AdmissionEmit = AdmissionEmit.DENIAL
    source: SourceId | None = None
    values: tuple[ModeName, ...] = ()
    components: tuple[ComponentName, ...] = ()
    # agree_when_any: where a component's mode is read, raw (the first of these
    # sources holding a non-empty string, as written; default: the requested
    # sources that count).
    mode_sources: tuple[SourceId, ...] = ()
    # fields: the components to test, in order (those declared); the tests
    # that must all hold for the check to apply at all; the cases in order.
    each: tuple[ComponentName, ...] = ()
    guard: tuple[FieldTest, ...] = ()
    cases: tuple[CheckCase, ...] = ()
    # model_exists: the kinds looked up by name, in order (spec.model.kind aside).
    lookup: tuple[KindName, ...] = ()
    # selection: the selection outcomes whose warnings and denial show here;
    # another kind: the outcomes whose webhook denial this check is (an audit
    # reports the check, not the outcome too).
    outcomes: tuple[Annotated[str, Ref("selection outcome")], ...] = ()
    # What the check is, in a line, for the docs' table (OME's function).
    doc: str = ""
    # canary, coordination and the other rollout kinds: the rollout groups'
    # fields; canary, coordination: their texts (the modes a member must have
    # are `values`, read raw from `mode_sources`).
    rollout: RolloutFields | None = None
    canary: CanaryMessages | None = None
    coordination: CoordinationMessages | None = None
    # rolling_update_budgets, soak, rollout_ordering: their texts; ratio_tolerance:
    # the bounds a group's maintainRatio tolerance keeps (its `message` when not).
    budgets: BudgetMessages | None = None
    bounds: Bounds | None = None
    soak: SoakMessages | None = None
    ordering: OrderingMessages | None = None
    undecided: Undecided | None = None
    since: str | None = None
    until: str | None = None
