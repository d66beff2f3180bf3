"""The checks OME runs on each runtime, one function per step, in the order and
with the version gates of `selection.checks`.

`assess(context, runtime)` runs them on one runtime; everything it needs about
the InferenceService and the model is computed once, in the `Context`, so a
caller that assesses many runtimes (or skips some with an index) pays for it once.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
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
from modetable.text.templates import fill
from modetable.versions import describe_range, in_force

__all__ = [
    "STEPS",
    "Candidate",
    "CheckResult",
    "CheckState",
    "Context",
    "RuntimeView",
    "StepFunction",
    "assess",
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


@attrs.frozen(eq=False)
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


@attrs.frozen(eq=False)
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


@attrs.frozen(eq=False)
class CheckResult:
    """One check on one runtime: its verdict, reason and what it read."""

    check: str
    step: str
    state: CheckState
    reason: str | None = None
    # (what, value) pairs the check read, for `explain --why`.
    inputs: tuple[tuple[str, str], ...] = ()
    # The deployment-mode check's decision, with each side's trace.
    match: RuntimeMatch | None = None
    # Why a skipped check did not run (not in force, no InferenceService, ...).
    skip_note: str | None = None

    @property
    def failed(self) -> bool:
        return self.state == CheckState.FAILED


@attrs.frozen(eq=False)
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
    return _result(
        check,
        disabled is True,
        _reason(ctx, check),
        inputs=((path, _shown(disabled)),),
    )


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
    return _result(check, bool(missing), _reason(ctx, check), inputs=inputs)


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
    matched = False  # an entry with no difference (compare.first_match)
    for entry in view.entries:
        alike, shown, _reason_part = compare.entry_texts(entry, ctx.model)
        matched = matched or alike
        inputs.append((f"{entries_path}[{entry.index}]", shown))
    reason = None if matched else compare.format_reason(view.entries, ctx.model)
    return _result(check, not matched, reason, inputs=tuple(inputs))


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
    reason = _reason(ctx, check, size=ctx.model.size, range=shown)
    return _result(check, not within(size, low, high), reason, inputs=inputs)


def _check_auto_select(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    rules = selection_rules(ctx.policy)
    chosen = [e.index for e in view.entries if e.auto_select is True]
    inputs = ((f"{rules.runtime.entries}[].{rules.entry.auto_select}=true", _shown(chosen)),)
    return _result(check, not chosen, _reason(ctx, check), inputs=inputs)


def _check_score(ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
    value = ctx.compare.score(view.entries, ctx.model)
    matched = ctx.compare.first_match(view.entries, ctx.model)
    # The "a different entry has autoSelect=true" text only when one does.
    another_selects = any(e.auto_select is True for e in view.entries if e is not matched)
    if matched is not None and matched.auto_select is not True and another_selects:
        reason = ctx.policy.message("matching_entry_not_auto_select", format=ctx.model.format_name)
    else:
        reason = _reason(ctx, check)
    return _result(check, value <= 0, reason, inputs=(("score", str(value)),))


STEPS: dict[SelectionStep, StepFunction] = {
    SelectionStep.DISABLED: _check_disabled,
    SelectionStep.ACCELERATOR_CLASS: _check_accelerator_class,
    SelectionStep.DEPLOYMENT_MODE: _check_deployment_mode,
    SelectionStep.MODEL_FORMAT: _check_model_format,
    SelectionStep.MODEL_SIZE: _check_model_size,
    SelectionStep.AUTO_SELECT: _check_auto_select,
    SelectionStep.SCORE: _check_score,
}


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


def assess(
    ctx: Context,
    runtime: Manifest,
    *,
    named: bool = False,
    full: bool = False,
    view: RuntimeView | None = None,
    step: Callable[[SelectionCheck], CheckResult] | None = None,
    ranking: Callable[[], dict[str, Any]] | None = None,
) -> Candidate:
    """The checks in order on one runtime; the first failure is its reason.

    With `full`, the checks after the first failure run too (for a trace);
    otherwise they are recorded as not reached. `step` and `ranking` replace how
    one check is run and how a qualifying runtime's ranking facts are found (a
    fleet audit memoises them); by default they are computed here.
    """
    view = view or runtime_view(ctx.policy, ctx.cluster, runtime, named)
    checked = view
    if step is None:

        def step(check: SelectionCheck) -> CheckResult:
            return STEPS[check.check](ctx, checked, check)

    rules = selection_rules(ctx.policy)
    results: list[CheckResult] = []
    failure: CheckResult | None = None
    failed_rule: SelectionCheck | None = None
    for check in rules.checks:
        note = skip_note(ctx, check, named)
        if note is None and failure is not None and not full:
            note = rules.explain.words["not_reached"]
        if note is not None:
            results.append(
                CheckResult(
                    check=check.id, step=check.check, state=CheckState.SKIPPED, skip_note=note
                )
            )
            continue
        result = step(check)
        results.append(result)
        if result.failed and failure is None:
            failure, failed_rule = result, check
    extras: dict[str, Any] = {}
    if failure is None:
        extras = ranking() if ranking is not None else ranking_facts(ctx, view)
    return Candidate(
        runtime=runtime,
        scope_label=ctx.policy.rules.manifests.scope_labels[runtime.scope],
        named=named,
        compatible=failure is None,
        reason=failure.reason if failure else None,
        failed_check=failure.check if failure else None,
        listed=failed_rule.listed if failed_rule else False,
        checks=tuple(results),
        **extras,
    )


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
