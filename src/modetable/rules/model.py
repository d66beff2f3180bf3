"""The shape of a rules file, as frozen attrs classes.

These classes are the single description of the format: cattrs structures
the YAML into them, and the JSON Schema is generated from them. Anything
version-gated carries `since` (inclusive) and `until` (exclusive).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Annotated, Any, Literal

import attrs

from modetable.rules.kinds import Defines, Ref, Template, Templates

__all__ = [
    "ATTRIBUTE_WORDS",
    "BOUND_MISSING",
    "BOUND_SHOWN",
    "CHECK_BUILTINS",
    "CONDITION_WORDS",
    "COUNTS_WORDS",
    "EXPLAIN_WORDS",
    "EXPLANATION_PARAMS",
    "MODE_FINDING_PARAMS",
    "OUTCOMES_NOT_RESULTS",
    "OUTCOMES_WITH_A_RUNTIME",
    "PATH_PARAMS",
    "PLACEHOLDER_WORDS",
    "ROW_MESSAGE_PARAMS",
    "SCOPE_WORDS",
    "SIDE_WORDS",
    "STAGE_PARAMS",
    "WHEN_RECORDED",
    "AdmissionCheck",
    "AdmissionEmit",
    "AdmissionRule",
    "AdmissionTable",
    "Bounds",
    "BudgetMessages",
    "CanaryMessages",
    "CheckCase",
    "CheckValue",
    "Compared",
    "Component",
    "ComponentName",
    "ConditionWord",
    "CoordinationMessages",
    "Counts",
    "DeclarationTable",
    "Difference",
    "Docs",
    "DocsSide",
    "Effect",
    "EffectWhen",
    "Emit",
    "EntryFields",
    "Example",
    "ExplainTable",
    "FieldTest",
    "FindingKind",
    "Findings",
    "FormatLabel",
    "Formats",
    "HitPolicy",
    "Inheritance",
    "InheritanceMessages",
    "KindName",
    "KindRef",
    "LabelPart",
    "ManifestFindings",
    "Manifests",
    "Matching",
    "MatchingTable",
    "Message",
    "MessageKey",
    "Mode",
    "ModeFinding",
    "ModeMove",
    "ModeName",
    "ModelFields",
    "ModelRefFields",
    "ModelSlot",
    "ModelVersions",
    "MoveBreak",
    "NoRuntimeMessage",
    "OrderingMessages",
    "Origin",
    "OutcomeRef",
    "PathTemplate",
    "Pipeline",
    "Purpose",
    "RankKey",
    "RefLookup",
    "RejectionRow",
    "RejectionTable",
    "RolloutFields",
    "Row",
    "RowCondition",
    "RuleFile",
    "RunFailure",
    "RunningMerge",
    "RuntimeAdmission",
    "RuntimeCheck",
    "RuntimeCheckKind",
    "RuntimeFields",
    "RuntimeRef",
    "RuntimeWebhook",
    "Scope",
    "Score",
    "Selection",
    "SelectionCheck",
    "SelectionStep",
    "Sentence",
    "Severity",
    "ShardedModels",
    "Sizes",
    "SoakMessages",
    "Source",
    "SourceDocs",
    "SourceExample",
    "SourceId",
    "SourceObject",
    "Sources",
    "SpecFields",
    "Stage",
    "Status",
    "StatusChange",
    "TestValue",
    "TestWord",
    "Undecided",
    "VersionName",
    "VersionOperator",
    "VersionOutcome",
    "VersionRef",
    "WebhookSelects",
    "Weight",
]

Status = Literal["current", "deprecated", "legacy"]
Compared = Literal["always", "when_declared", "never"]
Counts = Literal["always", "never", "when_named"]
SourceObject = Literal["isvc", "runtime", "runtime_resolved", "merged"]
Origin = Literal["ome", "kubernetes", "modetable"]
HitPolicy = Literal["UNIQUE", "FIRST", "ANY"]
Stage = Literal["schema", "webhook"]
AdmissionCheck = Literal[
    "allowed_values",
    "agree_when_any",
    "fields",
    "model_exists",
    "selection",
    "canary",
    "coordination",
    "rolling_update_budgets",
    "ratio_tolerance",
    "zero_budget",
    "soak",
    "rollout_ordering",
]
AdmissionEmit = Literal["denial", "warning"]
# The tests a `fields` check makes on a value (admission/fields.py, TESTS).
TestWord = Literal[
    "set", "unset", "empty", "filled", "equal", "unequal", "below", "above", "unlike"
]
Scope = Literal["namespace", "cluster"]
Purpose = Literal["requested", "declared", "running"]

# Names, typed by what they name (rules/kinds.py): validation checks that each
# reference names something defined, so a new field gets checked by its type.
# Every `since` and `until` names a listed version (checked by convention).
VersionName = Annotated[str, Defines("version")]
VersionRef = Annotated[str, Ref("version")]  # a listed version, beyond since/until
ModeName = Annotated[str, Ref("mode")]
ComponentName = Annotated[str, Ref("component")]
SourceId = Annotated[str, Ref("source")]
KindName = Annotated[str, Ref("kind")]
MessageKey = Annotated[str, Ref("message")]
OutcomeRef = Annotated[str, Ref("selection outcome")]

# The placeholders of a path, filled per component (Policy.placeholder_values).
PATH_PARAMS = ("component", "isvc_field", "runtime_field", "annotation_key")
PathTemplate = Annotated[str, Template(PATH_PARAMS)]

# A row's condition on one input: one of these words (their meaning:
# matching.CONDITIONS, tests/test_vocabulary.py holds them equal), a mode, or a
# list of modes.
ConditionWord = Literal["-", "none", "mode", "same", "different"]
CONDITION_WORDS: tuple[str, ...] = typing.get_args(ConditionWord)
RowCondition = Annotated[str, Ref("mode", also=CONDITION_WORDS)] | tuple[ModeName, ...]

# What the engine passes each explanation (modes.py) and each admission
# stage's wrapper (admission.py): the contract their placeholders are checked
# against. A message a rule names gets what that rule's field says
# (Ref.params); one the code names itself, what the call passes
# (authoring/callsites.py, checked by `modetable rules check`).
EXPLANATION_PARAMS: Mapping[str, tuple[str, ...]] = {
    "used": ("mode", "value"),
    "absent": (),
    "shadowed": ("value", "source"),
    "not_in_version": ("value", "range"),
    "does_not_count": ("value",),
    "when_named": ("value",),
    "not_valid": ("value", "version"),
    "not_accepted": ("value", "accepts"),
    "chain_broken": (),
}
STAGE_PARAMS: Mapping[str, tuple[str, ...]] = {
    "schema": ("kind", "name", "message"),
    "webhook": ("kind", "name", "message"),
}
ROW_MESSAGE_PARAMS = ("component", "runtime_mode", "isvc_mode")
# Words the engine looks up by these keys (and the placeholders it fills): a
# key left out is an error at load, not a KeyError halfway through an answer.
SCOPE_WORDS: Mapping[str, tuple[str, ...]] = {"namespace": (), "cluster": ()}
SIDE_WORDS: Mapping[str, tuple[str, ...]] = {"format": (), "framework": ()}
ATTRIBUTE_WORDS: Mapping[str, tuple[str, ...]] = {"architecture": (), "quantization": ()}
BOUND_SHOWN: Mapping[str, tuple[str, ...]] = {"min": ("value",), "max": ("value",)}
BOUND_MISSING: Mapping[str, tuple[str, ...]] = {"min": (), "max": ()}
COUNTS_WORDS: Mapping[str, tuple[str, ...]] = {"always": (), "never": (), "when_named": ()}
PLACEHOLDER_WORDS: Mapping[str, tuple[str, ...]] = {
    "component": (),
    "isvc_field": (),
    "runtime_field": (),
}
EXPLAIN_WORDS: Mapping[str, tuple[str, ...]] = {
    "passed": (),
    "failed": (),
    "not_reached": (),
    "needs_isvc": (),
    "auto_only": (),
    "not_in_version": ("range",),
}


def _admission_message_params(rule: Mapping[str, Any]) -> tuple[str, ...]:
    """allowed_values passes the value and the supported list; agree_when_any
    passes each component's requested mode under the component's name."""
    if rule.get("check") == "allowed_values":
        return ("value", "supported")
    if rule.get("check") in ("selection", "fields"):
        return ()
    if rule.get("check") == "model_exists":
        return ("model", "namespace")
    if rule.get("check") == "ratio_tolerance":
        return ("group", "tolerance", "limit")
    if rule.get("check") == "zero_budget":
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


@attrs.frozen
class KindRef:
    kind: Annotated[str, Defines("kind")]
    scope: Scope


@attrs.frozen
class Manifests:
    list_kind: str
    scope_labels: Annotated[dict[str, str], Templates(SCOPE_WORDS)]
    inference_service: str
    runtimes: tuple[KindRef, ...]
    models: tuple[KindRef, ...]
    # The API groups (`ome.io` of `ome.io/v1beta1`) whose objects are read; an
    # object of a kind above in another group is skipped. Empty: any group.
    api_groups: tuple[str, ...] = ()


@attrs.frozen
class StatusChange:
    """A mode's status in some versions (`since` the version that deprecated it,
    say); no two of a mode's changes hold in one version."""

    status: Status
    replacement: ModeName | None = None
    since: str | None = None
    until: str | None = None


@attrs.frozen
class Mode:
    """A valid mode value. `status` (and `replacement`) hold in every version
    none of `statuses` holds in."""

    name: Annotated[str, Defines("mode", report_unused=True)]
    status: Status
    since: str | None = None
    until: str | None = None
    replacement: ModeName | None = None
    doc: str = ""
    statuses: tuple[StatusChange, ...] = ()


@attrs.frozen
class Component:
    name: Annotated[str, Defines("component")]
    isvc_field: str
    runtime_field: str
    compared: Compared
    runs_in: tuple[ModeName, ...]


@attrs.frozen
class SourceDocs:
    """How the docs' "where each side declares a mode" table shows a source.

    `where` names the place ({placeholders} as in paths; default: the path);
    `per_component` gives each compared component its own row; `counts`
    replaces the derived "counts" cell ({accepts}: the modes it takes);
    `range_note: false` leaves out the "(since ...)" note.
    """

    where: PathTemplate | None = None
    per_component: bool = False
    counts: Annotated[str, Template(("accepts",))] | None = None
    range_note: bool = True


@attrs.frozen
class Source:
    """One place a mode can come from.

    Exactly one of `path` (a value read there), `present` (a fixed `gives`
    when any of these paths holds a value) or neither (a constant `gives`).
    """

    id: Annotated[str, Defines("source")]
    object: SourceObject | None = None
    path: PathTemplate | None = None
    present: tuple[PathTemplate, ...] = ()
    gives: ModeName | None = None
    name: str | None = None
    counts: Counts = "always"
    accepts: tuple[ModeName, ...] | None = None
    components: tuple[ComponentName, ...] | None = None
    effect: Literal["no_workload"] | None = None
    since: str | None = None
    until: str | None = None
    docs: SourceDocs | None = None

    @property
    def label(self) -> str:
        """The name `kubectl ome runtime effective` prints, else the id."""
        return self.name or self.id


@attrs.frozen
class SourceExample:
    """Values in the places a purpose's sources read, as a test: the mode that
    results for `component`, and the source that must decide it (`none`: no
    source does). `values` maps a source's id to the value its place holds
    (`set` for a source that checks `present` paths). Runs in each listed
    version in force.
    """

    purpose: Purpose
    component: ComponentName
    values: dict[SourceId, str]
    mode: Annotated[str, Ref("mode", also=("none",))]
    source: Annotated[str, Ref("source", also=("none",))]
    named: bool = False
    since: str | None = None
    until: str | None = None


@attrs.frozen
class Sources:
    requested: tuple[Source, ...]
    declared: tuple[Source, ...]
    running: tuple[Source, ...]
    examples: tuple[SourceExample, ...] = ()


@attrs.frozen
class RunningMerge:
    source: PathTemplate = attrs.field(metadata={"yaml_key": "from"})
    into: PathTemplate


@attrs.frozen
class Row:
    id: Annotated[str, Defines("row")]
    requested: RowCondition
    declared: RowCondition
    outcome: Annotated[str, Ref("outcome")]
    message: Annotated[str, Ref("message", params=ROW_MESSAGE_PARAMS)] | None = None
    since: str | None = None
    until: str | None = None


@attrs.frozen
class Example:
    """A row of the table as a test: these inputs give `outcome`, from `row`.

    It runs in each listed version in force where the modes it names are valid.
    The docs show it among OME's own examples unless `docs: false` (a test only).
    """

    requested: Annotated[str, Ref("mode", also=("none",))]
    declared: Annotated[str, Ref("mode", also=("none",))]
    outcome: Annotated[str, Ref("outcome")]
    row: Annotated[str, Ref("row")]
    since: str | None = None
    until: str | None = None
    docs: bool = True


@attrs.frozen
class Matching:
    hit_policy: HitPolicy
    inputs: Annotated[
        dict[str, str], Templates({"requested": PATH_PARAMS, "declared": PATH_PARAMS})
    ]
    outcomes: dict[Annotated[str, Defines("outcome", report_unused=True)], str]
    rows: tuple[Row, ...]
    examples: tuple[Example, ...] = ()


# A value a test compares with (`to`): as YAML writes it.
TestValue = bool | int | str


@attrs.frozen
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


@attrs.frozen
class CheckValue:
    """A value a case passes its message: read at `field` (an integer printed as
    a number, a missing field as ""), the first of `sources` holding a non-empty
    string (as written), or the template `text` (filled with the other values)."""

    field: PathTemplate | None = None
    sources: tuple[SourceId, ...] = ()
    text: str | None = None


@attrs.frozen
class CheckCase:
    """One way a `fields` check fails: when every test of `when` holds, the
    check gives `message`, passed the built-in values and `values`."""

    when: tuple[FieldTest, ...]
    message: Annotated[str, Ref("message", params=_case_message_params)]
    values: dict[str, CheckValue] = attrs.Factory(dict)


@attrs.frozen
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


@attrs.frozen
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


@attrs.frozen
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


@attrs.frozen
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


@attrs.frozen
class BudgetMessages:
    """The texts of OME's validateBudgetIntOrString on a rollingUpdate group's
    budget (`{budget}`: its field's name), by what each says."""

    negative: Annotated[str, Ref("message", params=_BUDGET)]
    not_percent: Annotated[str, Ref("message", params=_BUDGET)]
    malformed_percent: Annotated[str, Ref("message", params=_BUDGET)]
    percent_range: Annotated[str, Ref("message", params=_BUDGET)]


@attrs.frozen
class Bounds:
    """The integers a value must stay within (`min`, `max`; either may be open)."""

    min: int | None = None
    max: int | None = None


@attrs.frozen
class SoakMessages:
    """The texts of OME's validateSoakOnlyWhenSequenced, by what each says."""

    canary: Annotated[str, Ref("message", params=_GROUP)]
    not_sequenced: Annotated[str, Ref("message", params=_GROUP)]


@attrs.frozen
class OrderingMessages:
    """The texts of OME's ValidateRolloutOrderingEnforced: a group's `order`,
    then a list of groups whose order would be dropped (`{shape}`: what the
    first group that breaks the sequence is, one of the shapes)."""

    order: Annotated[str, Ref("message", params=_GROUP)]
    group_ordering: Annotated[str, Ref("message", params=("group", "shape"))]
    canary_shape: Annotated[str, Ref("message", params=())]
    rolling_update_shape: Annotated[str, Ref("message", params=())]
    multi_component_shape: Annotated[str, Ref("message", params=())]


@attrs.frozen
class AdmissionRule:
    """One admission check, run in the list's order (admission/kinds.py says
    what each kind of `check` does with the fields it uses)."""

    id: Annotated[str, Defines("admission check")]
    stage: Stage
    check: AdmissionCheck
    message: Annotated[str, Ref("message", params=_admission_message_params)] | None = None
    emit: AdmissionEmit = "denial"
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


@attrs.frozen
class RunFailure:
    id: Annotated[str, Defines("run failure")]
    components: tuple[ComponentName, ...]
    modes: tuple[ModeName, ...]
    log: Annotated[str, Ref("message", params=())]
    error: Annotated[str, Ref("message", params=("component",))]
    stops_later: bool = False


@attrs.frozen
class InheritanceMessages:
    parent_missing: Annotated[str, Ref("message", params=("parent", "chain"))]
    cycle: Annotated[str, Ref("message", params=("chain",))]
    too_deep: Annotated[str, Ref("message", params=("max", "chain"))]


@attrs.frozen
class RefLookup:
    order: tuple[KindName, ...]
    kind: KindName | None = None
    since: str | None = None
    until: str | None = None


@attrs.frozen
class RuntimeRef:
    name: str
    kind: str
    auto_sync: str
    default_kind: KindName
    lookups: tuple[RefLookup, ...]


# What the ServingRuntime webhook checks (admission/runtimes.py does each).
RuntimeCheckKind = Literal["profile_disabled", "priorities_agree"]


@attrs.frozen
class RuntimeWebhook:
    """The validating webhook of one runtime kind: its name in kubectl's denial
    and the word its messages name the kind by."""

    kind: KindName
    name: str
    kind_word: str


@attrs.frozen
class RuntimeCheck:
    """One check of the ServingRuntime webhook on apply."""

    id: Annotated[str, Defines("runtime admission check")]
    check: RuntimeCheckKind
    message: Annotated[str, Ref("message", params=("runtime", "kind_word", "name"))]
    # profile_disabled: where a profile says so, and the value that makes one.
    field: str | None = None
    value: str | None = None
    # priorities_agree: an entry's name, whose autoSelect entries share a priority.
    entry_name: str | None = None
    since: str | None = None
    until: str | None = None


@attrs.frozen
class RuntimeAdmission:
    """The ServingRuntime webhook on apply: a runtime it denies never exists,
    so no InferenceService gets it. A disabled runtime is admitted before the
    checks run. `not_modelled`: what the webhook checks that modetable does not."""

    webhooks: tuple[RuntimeWebhook, ...]
    denial: Annotated[str, Ref("message", params=("webhook", "message"))]
    checks: tuple[RuntimeCheck, ...]
    not_modelled: Annotated[str, Ref("message", params=())]


@attrs.frozen
class Inheritance:
    annotation: str
    max_chain: int
    list_key: str
    replace: tuple[str, ...]
    messages: InheritanceMessages
    since: str | None = None
    until: str | None = None


@attrs.frozen
class MoveBreak:
    """Names (starting with `prefix`) that stop working after a mode move."""

    what: str
    prefix: str
    replacements: dict[str, str] = attrs.Factory(dict)


@attrs.frozen
class ModeMove:
    """A component's move from one mode to another: what breaks, what stays behind."""

    id: Annotated[str, Defines("mode move")]
    from_mode: ModeName
    to_mode: ModeName
    breaks: tuple[MoveBreak, ...] = ()
    note: MessageKey | None = None


# Runtime selection (the `selection:` section). Each set of words below is
# given its meaning by a table in selection/ (the step by checks.STEPS, a rank
# key by scoring.RANK_KEYS, a difference by formats.DIFFERENCES, a label part
# by formats.LABEL_PARTS, a `when` by outcome.when_conditions);
# tests/test_vocabulary.py holds each pair equal.
SelectionStep = Literal[
    "disabled",
    "accelerator_class",
    "deployment_mode",
    "model_format",
    "model_size",
    "auto_select",
    "score",
]
ModelSlot = Literal["format", "empty"]
VersionOutcome = Literal["less", "equal", "greater"]
LabelPart = Literal[
    "format_name",
    "format_version",
    "architecture",
    "quantization",
    "framework_name",
    "framework_version",
]
Difference = Literal["pipeline", "architecture", "quantization", "format", "framework"]
RankKey = Literal["namespace_first", "score", "size_distance", "name"]
Emit = Literal["warning", "denial", "event", "condition", "message"]
EffectWhen = Literal[
    "webhook_selects",
    "webhook_resolves",
    "has_engine",
    "auto_sync",
    "pinned",
    "has_model",
    "no_model",
    "kind_cluster",
    "kind_namespace",
    # The InferenceService already records the condition the effect sets
    # (its type among the `selection.status_conditions`).
    "recorded",
]
# The `when` word an effect holds by its own condition, not a fact of the case.
WHEN_RECORDED = "recorded"


@attrs.frozen
class ModelRefFields:
    """Where an InferenceService names its model, and how the model is found."""

    path: str
    name: str
    kind: str
    default_kind: KindName
    explain_lookup: tuple[KindName, ...]
    optional_since: VersionRef | None = None


@attrs.frozen
class ModelFields:
    format: str
    framework: str
    architecture: str
    quantization: str
    pipeline: str
    size: str
    disabled: str
    distribution: str | None = None


@attrs.frozen
class ShardedModels:
    """A model whose distribution is `value` cannot be served (since `since`)."""

    value: str
    since: str | None = None
    until: str | None = None


@attrs.frozen
class RuntimeFields:
    disabled: str
    entries: str
    size_range: str
    size_min: str
    size_max: str
    accelerator_classes: str


@attrs.frozen
class EntryFields:
    format: str
    framework: str
    architecture: str
    quantization: str
    pipeline: str
    auto_select: str
    priority: str


@attrs.frozen
class SpecFields:
    """The fields of a modelFormat or modelFramework (entry's and model's)."""

    name: str
    version: str
    operator: str
    weight: str


@attrs.frozen
class WebhookSelects:
    """The webhook runs selection only with `requires` and no runner image of
    its own (any of `own_image_any`, or all of `own_image_all`)."""

    requires: str
    own_image_any: tuple[str, ...] = ()
    own_image_all: tuple[str, ...] = ()


@attrs.frozen
class SelectionCheck:
    id: Annotated[str, Defines("selection check")]
    check: SelectionStep
    message: MessageKey | None = None
    listed: bool = True
    auto_only: bool = False
    needs_isvc: bool = False
    model_slot: ModelSlot = "format"
    since: str | None = None
    until: str | None = None


@attrs.frozen
class VersionOperator:
    accepts: tuple[VersionOutcome, ...]
    same_shape: bool = False


@attrs.frozen
class ModelVersions:
    prefixes: tuple[str, ...]
    max_parts: int
    suffix_marks: tuple[str, ...]
    default_operator: Annotated[str, Ref("version operator")]
    operators: dict[Annotated[str, Defines("version operator")], VersionOperator]
    other_operator: VersionOperator
    suffixed: VersionOperator


@attrs.frozen
class FormatLabel:
    prefix: str
    separator: str
    parts: tuple[LabelPart, ...]


@attrs.frozen
class Pipeline:
    class_name: str
    components: tuple[str, ...]
    component_fields: tuple[str, ...]
    additional: str
    absent: str


@attrs.frozen
class Formats:
    label: FormatLabel
    differences: tuple[Difference, ...]
    entry_separator: str
    difference_separator: str
    sides: Annotated[dict[str, str], Templates(SIDE_WORDS)]
    attributes: Annotated[dict[str, str], Templates(ATTRIBUTE_WORDS)]
    pipeline: Pipeline


@attrs.frozen
class Sizes:
    units: dict[str, int]
    unparsed: int
    one_bound_since: VersionRef | None
    shown: Annotated[dict[str, str], Templates(BOUND_SHOWN)]
    missing: Annotated[dict[str, str], Templates(BOUND_MISSING)]
    range: Annotated[str, Template(("min", "max"))]


@attrs.frozen
class Weight:
    default: int
    zero_counts_as: int


@attrs.frozen
class Score:
    format_weight: Weight
    framework_weight: Weight
    default_priority: int


@attrs.frozen
class NoRuntimeMessage:
    separator: str
    item_separator: str


@attrs.frozen
class Effect:
    """One thing an outcome shows: a warning, a denial, an event, a condition,
    or the message saying why no runtime is used (select's `message`)."""

    emit: Emit
    message: MessageKey | None = None
    stage: Stage = "webhook"
    type: str | None = None
    reason: str | None = None
    status: str | None = None
    severity: str | None = None
    source: str | None = None
    when: tuple[EffectWhen, ...] = ()
    since: str | None = None
    until: str | None = None


@attrs.frozen
class ExplainTable:
    columns: tuple[str, ...]
    yes: str
    no: str
    empty: str
    words: Annotated[dict[str, str], Templates(EXPLAIN_WORDS)]
    # kind → the API resource a "not found" error names (clusterbasemodels.ome.io).
    resources: dict[str, str] = attrs.Factory(dict)


@attrs.frozen
class Selection:
    model_ref: ModelRefFields
    model: ModelFields
    runtime: RuntimeFields
    entry: EntryFields
    spec_fields: SpecFields
    accelerator_classes: tuple[str, ...]
    webhook: WebhookSelects
    checks: tuple[SelectionCheck, ...]
    versions: ModelVersions
    formats: Formats
    sizes: Sizes
    score: Score
    ranking: tuple[RankKey, ...]
    no_runtime: NoRuntimeMessage
    scope_words: Annotated[dict[str, str], Templates(SCOPE_WORDS)]
    outcomes: dict[Annotated[str, Defines("selection outcome")], tuple[Effect, ...]]
    explain: ExplainTable
    sharded: ShardedModels | None = None
    # outcome -> the message that tells the user what to do about it (the
    # outcome's `hint` wherever it is shown).
    hints: dict[OutcomeRef, Annotated[str, Ref("message", params=())]] = attrs.Factory(dict)
    # Where an InferenceService keeps its conditions (a list of {type, ...}):
    # a dump of a live cluster has them, a repository's manifests do not.
    status_conditions: str | None = None


@attrs.frozen
class Message:
    """A message, verbatim; `params` lists what modetable passes it, and every
    `{placeholder}` of the text must be one of them."""

    origin: Origin
    text: Annotated[str, Template(params_field="params")]
    params: tuple[str, ...] = ()
    # The params printed as Go's %q prints a string inside the quotes the text
    # already has: `"` and `\` escaped, control characters as escapes.
    quoted: tuple[str, ...] = ()
    # True when OME's docs do not show the text and modetable reads it from its
    # pattern (decided; see the rules file's comments).
    inferred: bool = False


@attrs.frozen
class Sentence:
    """A sentence of the docs, in force in some versions ({range}: "since v1.3")."""

    text: Annotated[str, Template(("range", "Range"))]
    since: str | None = None
    until: str | None = None


@attrs.frozen
class RejectionRow:
    when: str
    shows: tuple[Sentence, ...]
    since: str | None = None
    until: str | None = None


@attrs.frozen
class RejectionTable:
    headers: tuple[str, ...]
    rows: tuple[RejectionRow, ...]


@attrs.frozen
class DocsSide:
    purpose: Literal["requested", "declared"]
    label: str


@attrs.frozen
class DeclarationTable:
    headers: tuple[str, ...]
    sides: tuple[DocsSide, ...]
    counts: Annotated[dict[Counts, str], Templates(COUNTS_WORDS)]
    for_component: Annotated[str, Template(("component",))]
    ahead_of: Annotated[str, Template(("sources",))]


@attrs.frozen
class MatchingTable:
    component: ComponentName
    result: str


@attrs.frozen
class AdmissionTable:
    """How the admission checks' table reads: its headers; what follows a
    per-component check ({components}), a warning, a check not decided offline
    ({why}); how runtime selection's place in the order reads ({outcomes})."""

    headers: tuple[str, ...]
    each: Annotated[str, Template(("components",))]
    warning: str
    undecided: Annotated[str, Template(("why",))]
    selection: Annotated[str, Template(("outcomes",))]


@attrs.frozen
class Docs:
    """The words `modetable docs` puts around the rules in the generated regions."""

    none: str
    mode: Annotated[str, Template(("mode",))]
    status_notes: dict[Status, str]
    range_note: Annotated[str, Template(("range",))]
    placeholders: Annotated[
        dict[Literal["component", "isvc_field", "runtime_field"], str], Templates(PLACEHOLDER_WORDS)
    ]
    objects: dict[SourceObject, str]
    conditions: dict[ConditionWord, str]
    matching_table: MatchingTable
    declaration_table: DeclarationTable
    rejection_table: RejectionTable
    # The admission checks' table (`modetable docs`, region admission-checks).
    admission_table: AdmissionTable | None = None
    # Labels by id: selection checks, selection outcomes, an effect's `when` words.
    selection_checks: dict[Annotated[str, Ref("selection check")], str] = attrs.Factory(dict)
    selection_outcomes: dict[str, str] = attrs.Factory(dict)
    effect_conditions: dict[EffectWhen, str] = attrs.Factory(dict)


# Findings (the `findings:` section): what `modetable audit` reports.
Severity = Literal["error", "warning", "info"]
# The outcomes of selection that leave an InferenceService with a runtime; every
# other outcome needs a finding (`outcome` group). A named runtime that fails a
# check (named_unsupported) is reported by the check it fails (`check` group).
OUTCOMES_WITH_A_RUNTIME = ("picked", "named", "named_unsupported")
# What the controller shows for a virtual InferenceService, whatever selection's
# outcome (selection/outcome.py): never a `result`, so never a finding.
OUTCOMES_NOT_RESULTS = ("virtual_deployment",)
# What a mode's finding message is given (the `mode` group).
MODE_FINDING_PARAMS = ("component", "mode", "replacement")


@attrs.frozen
class FindingKind:
    """How bad one kind of finding is, and what it means (SARIF's rule text)."""

    severity: Severity
    description: str


@attrs.frozen
class ModeFinding:
    """A component running in a mode whose status asks for attention."""

    severity: Severity
    description: str
    message: Annotated[str, Ref("message", params=MODE_FINDING_PARAMS)]


@attrs.frozen
class ManifestFindings:
    """Findings about the manifests themselves, not about one InferenceService."""

    invalid: FindingKind
    duplicate: FindingKind
    # An object OME's webhook denies on apply (runtime_admission).
    denied: FindingKind | None = None


@attrs.frozen
class Findings:
    """Each kind of finding by the rule behind it, grouped by the section the
    rule's id comes from; a finding's id is `GROUP/KEY`."""

    admission: dict[Annotated[str, Ref("admission check")], FindingKind]
    # An admission check left undecided (its `undecided`): the verdict is
    # "allowed" only as far as modetable can tell.
    not_checked: dict[Annotated[str, Ref("admission check")], FindingKind] = attrs.field(
        factory=dict, kw_only=True
    )
    outcome: dict[Annotated[str, Ref("selection outcome")], FindingKind]
    check: dict[Annotated[str, Ref("selection check")], FindingKind]
    run_failure: dict[Annotated[str, Ref("run failure")], FindingKind]
    component: dict[ComponentName, FindingKind]
    mode_move: dict[Annotated[str, Ref("mode move")], FindingKind]
    mode: dict[ModeName, ModeFinding]
    manifest: ManifestFindings


@attrs.frozen
class RuleFile:
    # The format this modetable reads; a file of another is refused, not guessed at
    # (docs/api.md, Versioning).
    format: Literal[1]
    product: str
    # The rules lines: each holds from its version until the next one's, the
    # newest through its minor series (v1.3: every v1.3.x).
    versions: tuple[VersionName, ...]
    # The newest released line, answered for when no version is asked (a line
    # listed ahead of a release does not move it); default: the newest line.
    default_version: VersionRef | None = attrs.field(default=None, kw_only=True)
    annotation_key: str
    manifests: Manifests
    modes: tuple[Mode, ...]
    components: tuple[Component, ...]
    sources: Sources
    running_merge: RunningMerge
    matching: Matching
    admission: tuple[AdmissionRule, ...]
    admission_stages: Annotated[dict[str, str], Templates(STAGE_PARAMS)]
    run_failures: tuple[RunFailure, ...]
    runtime_ref: RuntimeRef
    inheritance: Inheritance
    messages: dict[Annotated[str, Defines("message", report_unused=True)], Message]
    explanations: Annotated[dict[str, str], Templates(EXPLANATION_PARAMS)]
    mode_moves: tuple[ModeMove, ...] = ()
    selection: Selection | None = None
    runtime_admission: RuntimeAdmission | None = None
    findings: Findings | None = None
    docs: Docs | None = None
