"""The checks OME runs on each runtime, one function per step, in the order and
with the version gates of `selection.checks`.

Each step is declared in `STEPS` with what it reads (the parts of its memo key)
and the index that can decide it up front; `selection.evaluate` runs them, for
one InferenceService or a fleet. Everything a step needs about the
InferenceService and the model is computed once, in the `Context`.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, StrEnum
from typing import Any

import attrs

from modetable.engine.matching import RuntimeMatch, match_runtime, requested_modes
from modetable.engine.modes import Resolution
from modetable.engine.runtimes import resolve_chain
from modetable.errors import ErrorCode, ModetableError
from modetable.inputs.fields import read
from modetable.inputs.formats import Entry, ModelFacts, entries_of
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing.paths import split, value_location
from modetable.parsing.yamlio import where
from modetable.rules.model.selection import SelectionCheck
from modetable.rules.policy import Policy
from modetable.rules.words import SelectionStep
from modetable.selection import scoring
from modetable.selection.compare import Comparisons
from modetable.selection.pending import waits_on
from modetable.selection.rules import selection_rules
from modetable.selection.sizes import SizeRange, distance, parse_size, within
from modetable.settled import frozen
from modetable.text.templates import fill
from modetable.versions import describe_range, in_force

__all__ = [
    "RANKING_READS",
    "RUNTIME_SIDE",
    "STEPS",
    "Candidate",
    "CheckResult",
    "CheckState",
    "Context",
    "Prefilter",
    "Read",
    "RuntimeView",
    "Step",
    "StepFunction",
    "make_context",
    "order",
    "ranking_facts",
    "runtime_view",
    "size_range",
    "skip_note",
]


class CheckState(StrEnum):
    """What became of a check on a runtime."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"


@frozen(eq=False)
class Context:
    """The InferenceService's side of every check, computed once.

    `isvc` is None when a model is explained alone: the checks that need an
    InferenceService are then skipped.
    """

    policy: Policy
    cluster: Cluster
    namespace: str
    model: ModelFacts
    isvc: Manifest | None = None
    requested: dict[str, Resolution] | None = None
    # The accelerator classes the InferenceService names: (path, class).
    classes: tuple[tuple[str, str], ...] = ()
    # How entries are compared with the model (a fleet audit memoises them).
    compare: Comparisons = attrs.field(kw_only=True)


def make_context(
    policy: Policy,
    cluster: Cluster,
    model: ModelFacts,
    isvc: Manifest | None,
    namespace: str,
    compare: Comparisons | None = None,
) -> Context:
    compare = compare if compare is not None else Comparisons(policy)
    if isvc is None:
        return Context(
            policy=policy, cluster=cluster, namespace=namespace, model=model, compare=compare
        )
    classes = []
    for path in selection_rules(policy).accelerator_classes:
        value = read(isvc.body, path, str, isvc.location)
        if value is not None:
            classes.append((path, value))
    return Context(
        policy=policy,
        cluster=cluster,
        namespace=namespace,
        model=model,
        isvc=isvc,
        requested=requested_modes(policy, isvc),
        classes=tuple(classes),
        compare=compare,
    )


@frozen(eq=False)
class RuntimeView:
    """A runtime as the checks read it: its own spec when auto-selected, the
    spec merged with its inheritance chain when named."""

    runtime: Manifest
    named: bool
    holder: dict[str, Any]  # {"spec": <the spec read>}
    entries: tuple[Entry, ...]


def runtime_view(policy: Policy, cluster: Cluster, runtime: Manifest, named: bool) -> RuntimeView:
    """Raises InheritanceError for a named runtime whose chain is broken."""
    holder: dict[str, Any] = runtime.body
    if named:
        chain = resolve_chain(policy, cluster, runtime)
        if len(chain.runtimes) > 1:
            holder = {"spec": chain.spec}
    entries = entries_of(selection_rules(policy), holder, runtime.location)
    return RuntimeView(runtime=runtime, named=named, holder=holder, entries=entries)


@frozen(eq=False)
class CheckResult:
    """One check on one runtime: its verdict, reason and what it read."""

    check: str
    step: str
    state: CheckState
    reason: str | None = None
    # (what, value) pairs the check read, for `explain --why`.
    inputs: tuple[tuple[str, str], ...] = ()
    # (what, words) pairs: modetable's words beside an input's OME text (the
    # comparison an ordering operator refused), printed under that input.
    notes: tuple[tuple[str, str], ...] = ()
    # The deployment-mode check's decision, with each side's trace.
    match: RuntimeMatch | None = None
    # Why a skipped check did not run (not in force, no InferenceService, ...).
    skip_note: str | None = None

    @property
    def failed(self) -> bool:
        return self.state == CheckState.FAILED


@frozen(eq=False)
class Candidate:
    """A runtime assessed for an InferenceService (or a model)."""

    runtime: Manifest
    scope_label: str
    named: bool
    compatible: bool
    reason: str | None
    failed_check: str | None
    listed: bool
    checks: tuple[CheckResult, ...]
    score: int | None = None
    distance: float | None = None
    priority: int | None = None
    weight: int | None = None

    @property
    def name(self) -> str:
        return self.runtime.name

    @property
    def kind(self) -> str:
        return self.runtime.kind

    @property
    def scope(self) -> str:
        return self.runtime.scope


StepFunction = Callable[[Context, RuntimeView, SelectionCheck], CheckResult]


def _result(check: SelectionCheck, failed: bool, reason: str | None, **extra: Any) -> CheckResult:
    return CheckResult(
        check=check.id,
        step=check.check,
        state=CheckState.FAILED if failed else CheckState.PASSED,
        reason=reason if failed else None,
        **extra,
    )


def _reason(ctx: Context, check: SelectionCheck, **values: Any) -> str:
    return _check_reason(ctx.policy, check, **values)


def _check_reason(policy: Policy, check: SelectionCheck, **values: Any) -> str:
    """The check's own message (the rules give one for every step that has one)."""
    if check.message is None:
        raise ModetableError(f"{policy.file}: selection check {check.id} names no message")
    return policy.message(check.message, **values)


def _shown(value: Any) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def _check_disabled(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    path = selection_rules(ctx.policy).runtime.disabled
    disabled = read(view.holder, path, bool, view.runtime.location)
    failed = disabled is True
    reason = _reason(ctx, check) if failed else None  # a reason only where it fails
    return _result(check, failed, reason, inputs=((path, _shown(disabled)),))


def _check_accelerator_class(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    path = selection_rules(ctx.policy).runtime.accelerator_classes
    listed = read(view.holder, path, list, view.runtime.location) or []
    listed_at = value_location(view.holder, split(path), view.runtime.location)
    for index, item in enumerate(listed):
        if not isinstance(item, str):
            raise ModetableError(
                f"{path}[{index}] must be a string",
                where(listed, index, listed_at or view.runtime.location),
                code=ErrorCode.WRONG_TYPE,
            )
    missing = [name for _path, name in ctx.classes if name not in listed]
    inputs = (*((p, repr(name)) for p, name in ctx.classes), (path, _shown(listed or None)))
    return _result(check, bool(missing), _reason(ctx, check) if missing else None, inputs=inputs)


def _check_deployment_mode(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    assert ctx.isvc is not None
    match = match_runtime(
        ctx.policy, ctx.cluster, ctx.isvc, view.runtime, view.named, ctx.requested
    )
    return _result(check, not match.passed, match.reason, match=match)


def _check_model_format(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    entries_path = selection_rules(ctx.policy).runtime.entries
    compare = ctx.compare
    inputs = [("model", compare.label(ctx.model))]
    parts = []  # each entry's differences as the reason lists them
    notes = []
    matched = False  # an entry with no difference (compare.first_match)
    for entry in view.entries:
        alike, shown, part = compare.entry_texts(entry, ctx.model)
        matched = matched or alike
        what = f"{entries_path}[{entry.index}]"
        inputs.append((what, shown))
        if not alike:
            notes.extend((what, text) for text in compare.comparisons(entry, ctx.model))
        parts.append(part)
    reason = None if matched else compare.format_reason(view.entries, ctx.model, parts)
    return _result(check, not matched, reason, inputs=tuple(inputs), notes=tuple(notes))


def size_range(ctx: Context, view: RuntimeView) -> SizeRange | None:
    fields = selection_rules(ctx.policy).runtime
    if read(view.holder, fields.size_range, dict, view.runtime.location) is None:
        return None
    return SizeRange(
        min=read(view.holder, fields.size_min, str, view.runtime.location),
        max=read(view.holder, fields.size_max, str, view.runtime.location),
    )


def _check_model_size(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    rules = selection_rules(ctx.policy)
    found = size_range(ctx, view)
    shown = found.render(rules.sizes, ctx.policy.version) if found else None
    inputs = (
        (rules.model.size, _shown(ctx.model.size)),
        (rules.runtime.size_range, _shown(shown)),
    )
    if ctx.model.size is None or found is None:
        return _result(check, False, None, inputs=inputs)
    size = parse_size(ctx.model.size, rules.sizes)
    low, high = found.bounds(rules.sizes, ctx.policy.version)
    failed = not within(size, low, high)
    reason = _reason(ctx, check, size=ctx.model.size, range=shown) if failed else None
    return _result(check, failed, reason, inputs=inputs)


def _check_auto_select(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    rules = selection_rules(ctx.policy)
    chosen = [e.index for e in view.entries if e.auto_select is True]
    inputs = ((f"{rules.runtime.entries}[].{rules.entry.auto_select}=true", _shown(chosen)),)
    return _result(check, not chosen, None if chosen else _reason(ctx, check), inputs=inputs)


def _check_score(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    value = ctx.compare.score(view.entries, ctx.model)
    inputs = (("score", str(value)),)
    if value > 0:
        return _result(check, False, None, inputs=inputs)
    matched = ctx.compare.first_match(view.entries, ctx.model)
    # The "a different entry has autoSelect=true" text only when one does.
    another_selects = any(e.auto_select is True for e in view.entries if e is not matched)
    if matched is not None and matched.auto_select is not True and another_selects:
        reason = ctx.policy.message("matching_entry_not_auto_select", format=ctx.model.format_name)
    else:
        reason = _reason(ctx, check)
    return _result(check, True, reason, inputs=inputs)


class Read(Enum):
    """What a step reads, the parts its memo key is made of: of the
    InferenceService's side (the `Context`), and of the runtime's (its view)."""

    MODEL = "model"  # the model's format facts (format, framework, architecture...)
    SIZE = "size"  # the model's parameter size
    CLASSES = "classes"  # the accelerator classes the InferenceService names
    MODES = "modes"  # the modes it requests per compared component, with their sources
    RUNTIME = "runtime"  # the runtime as read (the view: its own spec, or merged when named)
    ENTRIES = "entries"  # the values of its supportedModelFormats entries, not whose they are


# The parts that are the runtime's: a step reading only these decides the same
# for every InferenceService.
RUNTIME_SIDE = frozenset({Read.RUNTIME, Read.ENTRIES})


class Prefilter(Enum):
    """An index that decides a step for a set of runtimes at once (`engine.index`)."""

    MODES = "modes"  # the runtimes the requested modes let pass: exact
    CLASSES = "classes"  # the runtimes listing every class asked for: exact
    FORMAT_NAMES = "format_names"  # the runtimes with an entry of the model's names: may pass

    @property
    def exact(self) -> bool:
        """Whether every runtime of the index's set passes (else it narrows only)."""
        return self is not Prefilter.FORMAT_NAMES


@frozen
class Step:
    """One step: how it runs, what decides it (its memo key), and the index that
    can decide it up front for many runtimes, if any."""

    run: StepFunction
    reads: tuple[Read, ...]
    index: Prefilter | None = None


STEPS: dict[SelectionStep, Step] = {
    SelectionStep.DISABLED: Step(_check_disabled, (Read.RUNTIME,)),
    SelectionStep.ACCELERATOR_CLASS: Step(
        _check_accelerator_class, (Read.CLASSES, Read.RUNTIME), Prefilter.CLASSES
    ),
    SelectionStep.DEPLOYMENT_MODE: Step(
        _check_deployment_mode, (Read.MODES, Read.RUNTIME), Prefilter.MODES
    ),
    SelectionStep.MODEL_FORMAT: Step(
        _check_model_format, (Read.MODEL, Read.ENTRIES), Prefilter.FORMAT_NAMES
    ),
    SelectionStep.MODEL_SIZE: Step(_check_model_size, (Read.SIZE, Read.RUNTIME)),
    SelectionStep.AUTO_SELECT: Step(_check_auto_select, (Read.ENTRIES,)),
    SelectionStep.SCORE: Step(_check_score, (Read.MODEL, Read.ENTRIES)),
}

# What the ranking of a runtime that qualifies reads (`ranking_facts`).
RANKING_READS = (Read.MODEL, Read.SIZE, Read.RUNTIME)


def skip_note(ctx: Context, check: SelectionCheck, named: bool) -> str | None:
    """Why a check is skipped for this runtime (not in force, no InferenceService,
    auto-selection only, pending: it reads a field OME's model agent has yet to
    fill in), or None when it runs."""
    words = selection_rules(ctx.policy).explain.words
    if not in_force(check.since, check.until, ctx.policy.version):
        return fill(words["not_in_version"], {"range": describe_range(check.since, check.until)})
    if check.needs_isvc and ctx.isvc is None:
        return words["needs_isvc"]
    if check.auto_only and named:
        return words["auto_only"]
    waits = waits_on(ctx.policy, check, ctx.model.waiting)
    if waits:
        return fill(words["pending"], {"fields": ", ".join(waits)})
    return None


def ranking_facts(ctx: Context, view: RuntimeView) -> dict[str, Any]:
    """Score, size distance, and explain's PRIORITY and WEIGHT of the first entry
    that matches."""
    facts: dict[str, Any] = {"score": ctx.compare.score(view.entries, ctx.model)}
    matched = ctx.compare.first_match(view.entries, ctx.model)
    if matched is not None:
        facts["priority"] = scoring.priority_of(ctx.policy, matched)
        facts["weight"] = scoring.shown_weight(ctx.policy, matched)
    if ctx.model.size is not None:
        rules = selection_rules(ctx.policy)
        found = size_range(ctx, view)
        if found is None:
            facts["distance"] = 0.0
        else:
            low, high = found.bounds(rules.sizes, ctx.policy.version)
            facts["distance"] = distance(parse_size(ctx.model.size, rules.sizes), low, high)
    return facts


def order(policy: Policy, candidates: list[Candidate]) -> tuple[Candidate, ...]:
    """The runtimes that qualify in rank order (the first is picked), then the
    others, namespaced before cluster runtimes, each by name."""
    qualifying = sorted((c for c in candidates if c.compatible), key=scoring.rank_key(policy))
    scope = scoring.scope_order(policy)
    others = sorted(
        (c for c in candidates if not c.compatible), key=lambda c: (scope(c.scope), c.name)
    )
    return (*qualifying, *others)
