"""The `selection:` section: runtime selection's fields, checks, versions,
formats, sizes, score, ranking and outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import attrs

from modetable.rules.kinds import Defines, Ref, Template, Templates
from modetable.rules.model.names import SCOPE_WORDS, KindName, MessageKey, OutcomeRef, VersionRef
from modetable.rules.words import (
    Difference,
    EffectWhen,
    Emit,
    LabelPart,
    ModelField,
    ModelSlot,
    RankKey,
    SelectionStep,
    Stage,
    VersionOutcome,
)
from modetable.settled import frozen

__all__ = [
    "AGENT_PARAMS",
    "ATTRIBUTE_WORDS",
    "BOUND_MISSING",
    "BOUND_SHOWN",
    "EXPLAIN_WORDS",
    "SIDE_WORDS",
    "AgentField",
    "AgentWait",
    "Effect",
    "EntryFields",
    "ExplainTable",
    "FormatLabel",
    "Formats",
    "ModelFields",
    "ModelRefFields",
    "ModelVersions",
    "NoRuntimeMessage",
    "Pipeline",
    "RuntimeFields",
    "Score",
    "Selection",
    "SelectionCheck",
    "ShardedModels",
    "Sizes",
    "SpecFields",
    "VersionOperator",
    "WebhookSelects",
    "Weight",
]

# Words the engine looks up by these keys (and the placeholders it fills): a
# key left out is an error at load, not a KeyError halfway through an answer.
SIDE_WORDS: Mapping[str, tuple[str, ...]] = {"format": (), "framework": ()}
ATTRIBUTE_WORDS: Mapping[str, tuple[str, ...]] = {"architecture": (), "quantization": ()}
BOUND_SHOWN: Mapping[str, tuple[str, ...]] = {"min": ("value",), "max": ("value",)}
BOUND_MISSING: Mapping[str, tuple[str, ...]] = {"min": (), "max": ()}
EXPLAIN_WORDS: Mapping[str, tuple[str, ...]] = {
    "passed": (),
    "failed": (),
    "not_reached": (),
    "needs_isvc": (),
    "auto_only": (),
    "not_in_version": ("range",),
    "pending": ("fields",),
}
# What the messages of `model_agent` are given: the model, the fields it
# lacks, who fills them in, and what OME answers until then.
AGENT_PARAMS = ("kind", "name", "fields", "who", "answer")


@frozen
class ModelRefFields:
    """Where an InferenceService names its model, and how the model is found."""

    path: str
    name: str
    kind: str
    default_kind: KindName
    explain_lookup: tuple[KindName, ...]
    optional_since: VersionRef | None = None
    # The kinds OME's webhook tries, in order, for the model's name, whatever
    # `kind` says (its admission and its runtime resolution); empty: by kind,
    # as the controller looks it up.
    webhook_lookup: tuple[KindName, ...] = ()
    # What OME's manager logs when the controller does not find the model as
    # its kind: the line, and the error logged with it (`resource`: the
    # kind's resource, `explain.resources`).
    controller_miss_log: Annotated[str, Ref("message", params=("kind",))] | None = None
    controller_miss_error: Annotated[str, Ref("message", params=("resource", "model"))] | None = (
        None
    )


@frozen
class ModelFields:
    format: str
    framework: str
    architecture: str
    quantization: str
    pipeline: str
    size: str
    disabled: str
    distribution: str | None = None


@frozen
class ShardedModels:
    """A model whose distribution is `value` cannot be served (since `since`)."""

    value: str
    since: str | None = None
    until: str | None = None


@frozen
class RuntimeFields:
    disabled: str
    entries: str
    size_range: str
    size_min: str
    size_max: str
    accelerator_classes: str


@frozen
class EntryFields:
    format: str
    framework: str
    architecture: str
    quantization: str
    pipeline: str
    auto_select: str
    priority: str


@frozen
class SpecFields:
    """The fields of a modelFormat or modelFramework (entry's and model's)."""

    name: str
    version: str
    operator: str
    weight: str


@frozen
class WebhookSelects:
    """The webhook runs selection only with `requires` and no runner image of
    its own (any of `own_image_any`, or all of `own_image_all`)."""

    requires: str
    own_image_any: tuple[str, ...] = ()
    own_image_all: tuple[str, ...] = ()


@frozen
class SelectionCheck:
    id: Annotated[str, Defines("selection check")]
    check: SelectionStep
    message: MessageKey | None = None
    listed: bool = True
    auto_only: bool = False
    needs_isvc: bool = False
    model_slot: ModelSlot = ModelSlot.FORMAT
    since: str | None = None
    until: str | None = None


@frozen
class VersionOperator:
    accepts: tuple[VersionOutcome, ...]
    same_shape: bool = False
    # An ordering operator's sign (`>=`), to state the comparison in words.
    symbol: str | None = None


@frozen
class ModelVersions:
    prefixes: tuple[str, ...]
    max_parts: int
    suffix_marks: tuple[str, ...]
    default_operator: Annotated[str, Ref("version operator")]
    operators: dict[Annotated[str, Defines("version operator")], VersionOperator]
    other_operator: VersionOperator
    suffixed: VersionOperator


@frozen
class FormatLabel:
    prefix: str
    separator: str
    parts: tuple[LabelPart, ...]


@frozen
class Pipeline:
    class_name: str
    components: tuple[str, ...]
    component_fields: tuple[str, ...]
    additional: str
    absent: str


@frozen
class Formats:
    label: FormatLabel
    differences: tuple[Difference, ...]
    entry_separator: str
    difference_separator: str
    sides: Annotated[dict[str, str], Templates(SIDE_WORDS)]
    attributes: Annotated[dict[str, str], Templates(ATTRIBUTE_WORDS)]
    pipeline: Pipeline


@frozen
class Sizes:
    units: dict[str, int]
    unparsed: int
    one_bound_since: VersionRef | None
    shown: Annotated[dict[str, str], Templates(BOUND_SHOWN)]
    missing: Annotated[dict[str, str], Templates(BOUND_MISSING)]
    range: Annotated[str, Template(("min", "max"))]


@frozen
class Weight:
    default: int
    zero_counts_as: int


@frozen
class Score:
    format_weight: Weight
    framework_weight: Weight
    default_priority: int


@frozen
class NoRuntimeMessage:
    separator: str
    item_separator: str


@frozen
class Effect:
    """One thing an outcome shows: a warning, a denial, an event, a condition,
    or the message saying why no runtime is used (select's `message`)."""

    emit: Emit
    message: MessageKey | None = None
    stage: Stage = Stage.WEBHOOK
    type: str | None = None
    reason: str | None = None
    status: str | None = None
    severity: str | None = None
    source: str | None = None
    when: tuple[EffectWhen, ...] = ()
    since: str | None = None
    until: str | None = None


@frozen
class AgentField:
    """A model field OME's model agent fills in where the model leaves it empty."""

    field: ModelField
    # The selection checks that read it: not decided while it is missing.
    checks: tuple[Annotated[str, Ref("selection check")], ...]
    # Filled in only when the model's config has one (quantization): its
    # absence is never waited on, but read as it is.
    optional: bool = False


@frozen
class AgentWait:
    """How selection reads a model OME's model agent has yet to fill in (the
    top-level `model_agent` lists every field the agent fills; `fields` are
    those selection reads). A model waits while a field of `fields` is
    missing, no state of `done` is in `state`, and no `skip_annotation` is
    `skip_value` (any case)."""

    id: Annotated[str, Defines("model agent")]
    who: str
    state: str
    done: tuple[str, ...]
    failed: tuple[str, ...]
    skip_annotation: str
    skip_value: str
    fields: tuple[AgentField, ...]
    # The finding: with what OME answers until the model is filled in, and
    # (`message_quiet`) where it answers nothing.
    message: Annotated[str, Ref("message", params=AGENT_PARAMS)]
    message_quiet: Annotated[str, Ref("message", params=AGENT_PARAMS[:-1])]
    # No runtime named: the runtimes that could be picked once it is filled
    # in (selection's message), or why none could (the outcome's hint: each
    # runtime with its first failure, or `no_runtimes` where there is none).
    could_pick: Annotated[str, Ref("message", params=("runtimes", "who"))]
    none_could: Annotated[str, Ref("message", params=("excluded", "who"))]
    no_runtimes: Annotated[str, Ref("message", params=("namespace",))]
    # What to do about a model the agent is done with (`done`; `failed`
    # apart), or skips, that still lacks a field it fills in.
    done_hint: Annotated[str, Ref("message", params=("state", "fields"))]
    failed_hint: Annotated[str, Ref("message", params=("state", "fields"))]
    skipped_hint: Annotated[str, Ref("message", params=("fields",))]


@frozen
class ExplainTable:
    columns: tuple[str, ...]
    yes: str
    no: str
    empty: str
    words: Annotated[dict[str, str], Templates(EXPLAIN_WORDS)]
    # kind → the API resource a "not found" error names (clusterbasemodels.ome.io).
    resources: dict[str, str] = attrs.Factory(dict)


@frozen
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
    # OME's model agent: what it fills in of a model, so what waits for it.
    model_agent: AgentWait | None = None
