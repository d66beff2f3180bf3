"""Every closed set of words the rules file may use, and the words the engine
answers with, each defined once: the rules' model types its fields with them
(cattrs reads a word into its member; the JSON Schema lists the values) and
the engine keys its tables by them (`matching.CONDITIONS`, `checks.STEPS`,
`scoring.RANK_KEYS`, `kinds.CHECKS`, ...), so the data and the code cannot
name different words (tests/test_vocabulary.py: every table covers its set).

A member is its word (a `StrEnum`): it compares, hashes, prints and is
written to JSON as the string. The order of the members is the order the
schema and the loader's errors list them in. This module imports nothing of
modetable's: anything may use it.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "OUTCOMES_NOT_RESULTS",
    "OUTCOMES_WITH_A_RUNTIME",
    "AdmissionCheck",
    "AdmissionEmit",
    "Compared",
    "ComponentPlaceholder",
    "ConditionWord",
    "Counts",
    "Difference",
    "EffectWhen",
    "Emit",
    "FindingGroup",
    "HitPolicy",
    "LabelPart",
    "ManifestFinding",
    "MatchInput",
    "ModeSourceFinding",
    "ModelSlot",
    "Origin",
    "Purpose",
    "RankKey",
    "ReadFrom",
    "RuntimeCheckKind",
    "SchemaError",
    "Scope",
    "SelectionOutcome",
    "SelectionStep",
    "Severity",
    "SourceEffect",
    "SourceObject",
    "Stage",
    "Status",
    "TestWord",
    "VersionOutcome",
]


# --- modes, components and sources --------------------------------------------


class Status(StrEnum):
    """A mode's status (`modes[].status`)."""

    CURRENT = "current"
    DEPRECATED = "deprecated"
    LEGACY = "legacy"


class Compared(StrEnum):
    """When a component's modes are compared (`components[].compared`)."""

    ALWAYS = "always"
    WHEN_DECLARED = "when_declared"
    NEVER = "never"


class Counts(StrEnum):
    """When a source's value counts (`sources.*[].counts`)."""

    ALWAYS = "always"
    NEVER = "never"
    WHEN_NAMED = "when_named"


class SourceObject(StrEnum):
    """The object a source reads (`sources.*[].object`)."""

    ISVC = "isvc"
    RUNTIME = "runtime"
    RUNTIME_RESOLVED = "runtime_resolved"
    MERGED = "merged"


class SourceEffect(StrEnum):
    """What a source's mode does beside being a mode (`sources.*[].effect`)."""

    NO_WORKLOAD = "no_workload"


class Purpose(StrEnum):
    """What a list of sources decides (`sources.requested`, ...)."""

    REQUESTED = "requested"
    DECLARED = "declared"
    RUNNING = "running"


class ComponentPlaceholder(StrEnum):
    """The placeholders a component fills in a path (`docs.placeholders`)."""

    COMPONENT = "component"
    ISVC_FIELD = "isvc_field"
    RUNTIME_FIELD = "runtime_field"


class Origin(StrEnum):
    """Whose a message's text is (`messages.*.origin`)."""

    OME = "ome"
    KUBERNETES = "kubernetes"
    MODETABLE = "modetable"


class ReadFrom(StrEnum):
    """Where an object was read from (`--live`): the manifests alone, the live
    dump alone (part of the cluster the manifests land in), or both (the
    manifest's spec with the cluster's status and filled-in fields)."""

    MANIFEST = "manifest"
    LIVE = "live"
    BOTH = "both"


class Scope(StrEnum):
    """Where a kind of object lives (`manifests.runtimes[].scope`)."""

    NAMESPACE = "namespace"
    CLUSTER = "cluster"


# --- the matching table --------------------------------------------------------


class HitPolicy(StrEnum):
    """How the rows that match decide (`matching.hit_policy`)."""

    UNIQUE = "UNIQUE"
    FIRST = "FIRST"
    ANY = "ANY"


class MatchInput(StrEnum):
    """The two inputs the matching table compares (`matching.inputs`)."""

    REQUESTED = "requested"
    DECLARED = "declared"


class ConditionWord(StrEnum):
    """A row's condition on one input when it is not a mode
    (`matching.rows[].requested`; their meaning: `matching.CONDITIONS`)."""

    ANY = "-"
    NONE = "none"  # also how examples and tables write "no mode"
    MODE = "mode"
    SAME = "same"
    DIFFERENT = "different"


# --- admission -------------------------------------------------------------------


class Stage(StrEnum):
    """Who checks, in this order: the API server's schema, then OME's webhook."""

    SCHEMA = "schema"
    WEBHOOK = "webhook"


class AdmissionCheck(StrEnum):
    """The kinds of admission check (`admission[].check`; `kinds.CHECKS`)."""

    ALLOWED_VALUES = "allowed_values"
    AGREE_WHEN_ANY = "agree_when_any"
    FIELDS = "fields"
    MODEL_EXISTS = "model_exists"
    SELECTION = "selection"
    CANARY = "canary"
    COORDINATION = "coordination"
    ROLLING_UPDATE_BUDGETS = "rolling_update_budgets"
    RATIO_TOLERANCE = "ratio_tolerance"
    ZERO_BUDGET = "zero_budget"
    SOAK = "soak"
    ROLLOUT_ORDERING = "rollout_ordering"
    CRD_SCHEMA = "crd_schema"


class AdmissionEmit(StrEnum):
    """What an admission check gives when it fails (`admission[].emit`)."""

    DENIAL = "denial"
    WARNING = "warning"


class TestWord(StrEnum):
    """The tests a `fields` check makes on a value (`is`; `fields.TESTS`)."""

    __test__ = False  # not a test class, whatever pytest makes of the name

    SET = "set"
    UNSET = "unset"
    EMPTY = "empty"
    FILLED = "filled"
    EQUAL = "equal"
    UNEQUAL = "unequal"
    BELOW = "below"
    ABOVE = "above"
    UNLIKE = "unlike"


class RuntimeCheckKind(StrEnum):
    """What the ServingRuntime webhook checks (`runtime_admission.checks[].check`)."""

    PROFILE_DISABLED = "profile_disabled"
    PRIORITIES_AGREE = "priorities_agree"


# --- runtime selection -------------------------------------------------------------


class SelectionStep(StrEnum):
    """The steps a selection check can run (`selection.checks[].check`; `checks.STEPS`)."""

    DISABLED = "disabled"
    ACCELERATOR_CLASS = "accelerator_class"
    DEPLOYMENT_MODE = "deployment_mode"
    MODEL_FORMAT = "model_format"
    MODEL_SIZE = "model_size"
    AUTO_SELECT = "auto_select"
    SCORE = "score"


class ModelSlot(StrEnum):
    """What a selection check needs of the model (`selection.checks[].model_slot`)."""

    FORMAT = "format"
    EMPTY = "empty"


class VersionOutcome(StrEnum):
    """A version compared with another (`selection.versions.operators.*.accepts`)."""

    LESS = "less"
    EQUAL = "equal"
    GREATER = "greater"


class LabelPart(StrEnum):
    """The parts of the `mt:` label (`selection.formats.label.parts`; `formats.LABEL_PARTS`)."""

    FORMAT_NAME = "format_name"
    FORMAT_VERSION = "format_version"
    ARCHITECTURE = "architecture"
    QUANTIZATION = "quantization"
    FRAMEWORK_NAME = "framework_name"
    FRAMEWORK_VERSION = "framework_version"


class Difference(StrEnum):
    """How an entry can differ from a model (`selection.formats.differences`;
    `formats.DIFFERENCES`)."""

    PIPELINE = "pipeline"
    ARCHITECTURE = "architecture"
    QUANTIZATION = "quantization"
    FORMAT = "format"
    FRAMEWORK = "framework"


class RankKey(StrEnum):
    """What ranks the runtimes that qualify (`selection.ranking`; `scoring.RANK_KEYS`)."""

    NAMESPACE_FIRST = "namespace_first"
    SCORE = "score"
    SIZE_DISTANCE = "size_distance"
    NAME = "name"


class Emit(StrEnum):
    """What an effect of a selection outcome shows (`selection.outcomes.*[].emit`)."""

    WARNING = "warning"
    DENIAL = "denial"
    EVENT = "event"
    CONDITION = "condition"
    MESSAGE = "message"


class EffectWhen(StrEnum):
    """The facts an effect may wait for (`selection.outcomes.*[].when`;
    `outcome.when_conditions`, and RECORDED, which each effect decides by
    its own condition)."""

    WEBHOOK_SELECTS = "webhook_selects"
    WEBHOOK_RESOLVES = "webhook_resolves"
    HAS_ENGINE = "has_engine"
    AUTO_SYNC = "auto_sync"
    PINNED = "pinned"
    HAS_MODEL = "has_model"
    NO_MODEL = "no_model"
    KIND_CLUSTER = "kind_cluster"
    KIND_NAMESPACE = "kind_namespace"
    # The InferenceService already records the condition the effect sets
    # (its type among the `selection.status_conditions`).
    RECORDED = "recorded"


class SelectionOutcome(StrEnum):
    """The outcomes selection gives (the keys of `selection.outcomes` it names)."""

    PICKED = "picked"
    NAMED = "named"
    NAMED_UNSUPPORTED = "named_unsupported"
    NONE = "none"
    MODEL_FORMAT_MISSING = "model_format_missing"
    MODEL_MISSING = "model_missing"
    MODEL_DISABLED = "model_disabled"
    MODEL_SHARDED = "model_sharded"
    RUNTIME_MISSING = "runtime_missing"
    RUNTIME_DISABLED = "runtime_disabled"
    CHAIN_BROKEN = "chain_broken"
    NAMED_MODEL_INVALID = "named_model_invalid"
    NO_MODEL_OR_RUNTIME = "no_model_or_runtime"
    MODEL_NAME_MISSING = "model_name_missing"
    VIRTUAL_DEPLOYMENT = "virtual_deployment"


# The outcomes of selection that leave an InferenceService with a runtime; every
# other outcome needs a finding (`outcome` group). A named runtime that fails a
# check (named_unsupported) is reported by the check it fails (`check` group).
OUTCOMES_WITH_A_RUNTIME = (
    SelectionOutcome.PICKED,
    SelectionOutcome.NAMED,
    SelectionOutcome.NAMED_UNSUPPORTED,
)
# What the controller shows for a virtual InferenceService, whatever selection's
# outcome (selection/outcome.py): never a `result`, so never a finding.
OUTCOMES_NOT_RESULTS = (SelectionOutcome.VIRTUAL_DEPLOYMENT,)


# --- findings ------------------------------------------------------------------------


class Severity(StrEnum):
    """How bad a finding or a problem is, most severe first (`findings.*.severity`;
    a rules file's problems are errors or warnings)."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class ModeSourceFinding(StrEnum):
    """What becomes of a mode value a source reads that is a finding
    (`findings.mode_source`): the verdicts that pass a written value over
    (engine/modes.py's `Verdict`), and the runtime's mode overriding the one
    asked for."""

    NOT_VALID = "not_valid"
    NOT_ACCEPTED = "not_accepted"
    DOES_NOT_COUNT = "does_not_count"
    WHEN_NAMED = "when_named"
    OVERRIDDEN = "overridden"


class FindingGroup(StrEnum):
    """The groups of `findings`, as a finding's id begins (`GROUP/KEY`)."""

    ADMISSION = "admission"
    NOT_CHECKED = "not_checked"
    OUTCOME = "outcome"
    CHECK = "check"
    RUN_FAILURE = "run_failure"
    COMPONENT = "component"
    MODE_MOVE = "mode_move"
    MODE = "mode"
    MODE_SOURCE = "mode_source"
    MANIFEST = "manifest"
    SCHEMA = "schema"


class SchemaError(StrEnum):
    """What the API server refuses in an object by OME's CRD schema
    (`findings.schema`; inputs/schema_check.py finds each)."""

    UNKNOWN_FIELD = "unknown-field"
    TYPE = "type"
    ENUM = "enum"
    REQUIRED = "required"
    MINIMUM = "minimum"
    MAXIMUM = "maximum"
    MULTIPLE_OF = "multiple-of"
    MIN_LENGTH = "min-length"
    MAX_LENGTH = "max-length"
    PATTERN = "pattern"
    FORMAT = "format"
    MIN_ITEMS = "min-items"
    MAX_ITEMS = "max-items"
    MIN_PROPERTIES = "min-properties"
    MAX_PROPERTIES = "max-properties"
    ANY_OF = "any-of"
    DUPLICATE = "duplicate"
    NAME = "name"


class ManifestFinding(StrEnum):
    """What can be wrong with the manifests themselves (`findings.manifest`)."""

    INVALID = "invalid"
    DUPLICATE = "duplicate"
    DENIED = "denied"
