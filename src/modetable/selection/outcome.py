"""Selection for one InferenceService as OME reaches it: the runtime it uses
(picked, or named), or why none; what admission, events and conditions show;
and the mode each component then runs in.

`select` is the reference: plain and complete. Every text comes from the rules;
which texts an outcome shows is `selection.outcomes`.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from modetable.admission import Admission, Shown
from modetable.engine.modes import Resolution
from modetable.engine.running import effective
from modetable.engine.runtimes import (
    InheritanceError,
    RuntimeRefRequest,
    find_named_runtime,
    runtime_request,
)
from modetable.errors import Location
from modetable.inputs.fields import is_set, read
from modetable.inputs.formats import ModelFacts
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing.paths import lookup, render, split
from modetable.rules.policy import Policy
from modetable.rules.words import (
    OUTCOMES_NOT_RESULTS,
    EffectWhen,
    Emit,
    ModelField,
    ModelSlot,
    Scope,
    SelectionOutcome,
)
from modetable.selection import scoring
from modetable.selection.checks import (
    Candidate,
    Context,
    RuntimeView,
    make_context,
)
from modetable.selection.evaluate import Evaluator
from modetable.selection.pending import (
    PendingModel,
    field_names,
    model_agent,
    settled_hint,
    waiting_fields,
)
from modetable.selection.rules import selection_rules
from modetable.settled import frozen
from modetable.versions import in_force

__all__ = [
    "Case",
    "Event",
    "ModelRef",
    "NamelessModelRef",
    "Outcome",
    "StatusCondition",
    "did_you_mean",
    "disabled_refusal",
    "find_model",
    "found_elsewhere",
    "lookup_note",
    "outcome_hint",
    "recorded_conditions",
    "select",
    "webhook_model",
    "when_conditions",
]


@frozen
class Event:
    """An event the controller records; `outcome` is the selection outcome of
    the rules (`selection.outcomes`) that gives it."""

    type: str
    reason: str
    message: str
    source: str | None = None
    outcome: str | None = None


@frozen
class StatusCondition:
    """A Kubernetes status condition the outcome sets on the InferenceService."""

    type: str
    status: str
    reason: str
    message: str | None = None
    severity: str | None = None
    outcome: str | None = None  # the selection outcome of the rules that sets it


@frozen(eq=False)
class Outcome:
    """What OME does with one InferenceService, and why.

    `result` is the outcome's key in the rules (`picked`, `named`, `none`,
    `model_missing`...). `candidates` is auto-selection over every runtime of
    the namespace and cluster (hypothetical when the runtime is named), in
    explain's order; `named_check` is the named runtime's own check.
    """

    isvc: Manifest
    version: str
    result: str
    runtime: Manifest | None
    named: bool
    message: str | None
    admission: Admission
    events: tuple[Event, ...]
    conditions: tuple[StatusCondition, ...]
    components: dict[str, Resolution]
    reconcile: dict[str, str]
    candidates: tuple[Candidate, ...] = ()
    # Component → the id of the rules' run failure behind its `reconcile` error
    # (None where no rule names its mode).
    reconcile_rules: dict[str, str | None] = attrs.Factory(dict)
    # Component -> the line OME's manager logs its failure under.
    reconcile_logs: dict[str, str] = attrs.Factory(dict)
    model: Manifest | None = None
    named_check: Candidate | None = None
    no_workload: bool = False
    # False when the controller handled the InferenceService as virtual before it
    # resolved a model or a runtime (the rules' `virtual_deployment` effects,
    # in force): no runtime is used, whatever the webhook's resolution found.
    resolved: bool = True
    # The object to fix when it is not the InferenceService: the model or the
    # runtime that makes the outcome what it is.
    cause: Manifest | None = None
    # What to do: a "did you mean" for a name that is not found, or the
    # rules' hint for the outcome (`selection.hints`).
    hint: str | None = None
    # The InferenceService's field the outcome turns on (a path of the rules:
    # the model or the runtime it names, or where it would), where a finding
    # about it belongs.
    field: str | None = None
    # The model OME's webhook finds by name (`model_ref.webhook_lookup`) when
    # it is another object than `model`, the controller's (by kind): then
    # `admission` is the webhook's, with that model, and the rest the
    # controller's.
    webhook_model: Manifest | None = None
    # The line OME's manager logs when the controller stops before any
    # workload and records no event (the model not found as its kind).
    controller_log: str | None = None
    # What each part uses where they find different models (`lookup_note`).
    lookup: str | None = None
    # The model waits for OME's model agent (`selection.model_agent`): the
    # outcome is what OME does once it is filled in, the checks reading a
    # missing field pending; this says what is missing and OME's answer until then.
    pending: PendingModel | None = None

    @property
    def picked(self) -> Candidate | None:
        """The auto-selected runtime's assessment, when one was picked."""
        if self.result != SelectionOutcome.PICKED:
            return None
        return next((c for c in self.candidates if c.runtime is self.runtime), None)


@frozen
class ModelRef:
    """The model an InferenceService names."""

    name: str
    kind: str


@frozen
class NamelessModelRef:
    """`spec.model` is there but names no model: `path` is where the name belongs."""

    path: str


def _model_reference(policy: Policy, isvc: Manifest) -> ModelRef | NamelessModelRef | None:
    """The model `spec.model` names; None without spec.model."""
    rules = selection_rules(policy).model_ref
    node = read(isvc.body, rules.path, dict, isvc.location)
    if node is None:
        return None
    name = read(node, rules.name, str, isvc.location)
    if not name:
        return NamelessModelRef(path=render((*split(rules.path), rules.name)))
    kind = read(node, rules.kind, str, isvc.location) or rules.default_kind
    return ModelRef(name=name, kind=kind)


def find_model(
    policy: Policy, cluster: Cluster, kind: str, name: str, namespace: str
) -> Manifest | None:
    """A BaseModel in the namespace, or a ClusterBaseModel (by the kind's scope)."""
    for ref in policy.rules.manifests.models:
        if ref.kind == kind:
            return cluster.get(kind, name, namespace if ref.scope == Scope.NAMESPACE else None)
    return None


def _scope_of(policy: Policy, kind: str) -> str | None:
    return next((r.scope for r in policy.rules.manifests.runtimes if r.kind == kind), None)


def when_conditions(
    policy: Policy, isvc: Manifest, request: RuntimeRefRequest | None, has_model: bool
) -> dict[str, bool]:
    """The facts an effect's `when` can require."""
    hook = selection_rules(policy).webhook
    body = isvc.body
    has_engine = is_set(body, hook.requires)
    at = isvc.location
    own_image = any(_image_at(body, p, at) for p in hook.own_image_any) or (
        bool(hook.own_image_all) and all(_image_at(body, p, at) for p in hook.own_image_all)
    )
    kind_scope = _scope_of(policy, request.kind) if request else None
    return {
        EffectWhen.WEBHOOK_SELECTS: has_engine and not own_image,
        # The webhook looks the model and runtime up only then (OME's
        # validateRuntimeAndModelResolution): a runtime named, or no image.
        EffectWhen.WEBHOOK_RESOLVES: has_engine and (request is not None or not own_image),
        EffectWhen.HAS_ENGINE: has_engine,
        EffectWhen.AUTO_SYNC: request is None or request.auto_sync,
        EffectWhen.PINNED: request is not None and not request.auto_sync,
        EffectWhen.HAS_MODEL: has_model,
        EffectWhen.NO_MODEL: not has_model,
        EffectWhen.KIND_CLUSTER: kind_scope == Scope.CLUSTER,
        EffectWhen.KIND_NAMESPACE: kind_scope == Scope.NAMESPACE,
    }


def recorded_conditions(policy: Policy, isvc: Manifest) -> frozenset[str]:
    """The types of the conditions `isvc` already records (`status_conditions`).

    A status is the API server's to write, never a manifest's author's: what
    is not a list of conditions with a string `type` records none."""
    path = selection_rules(policy).status_conditions
    listed = lookup(isvc.body, split(path)) if path is not None else None
    if not isinstance(listed, list):
        return frozenset()
    return frozenset(
        item["type"]
        for item in listed
        if isinstance(item, dict) and isinstance(item.get("type"), str)
    )


def _image_at(body: Any, path: str, fallback: Location) -> bool:
    """Whether `path` names an image: the webhook tests `image != ""`, so an
    empty value is none; a value that is not a string the API server refuses."""
    return bool(read(body, path, str, fallback))


@frozen(eq=False)
class Case:
    """What `select` knows so far about one InferenceService."""

    policy: Policy
    cluster: Cluster
    isvc: Manifest
    when: dict[str, bool]
    values: dict[str, Any]
    candidates: tuple[Candidate, ...] = ()
    model: Manifest | None = None
    evaluator: Evaluator | None = None  # None: the reference's
    recorded: frozenset[str] = frozenset()  # the conditions it already records

    def finish(
        self,
        *results: str,
        message: str | None = None,
        used: Manifest | None = None,
        named: bool = False,
        named_check: Candidate | None = None,
        cause: Manifest | None = None,
        hint: str | None = None,
        field: str | None = None,
        **values: Any,
    ) -> Outcome:
        policy = self.policy
        fill = {**self.values, **values, "message": message or ""}
        shown, events, conditions, _ = self._shows(results, fill, message)
        if message is None and used is None:
            message = next((s.text for s in shown if s.emit == Emit.DENIAL), None)
        evaluator = self.evaluator or Evaluator(policy, self.cluster)
        # The webhook weighs selection's outcome only where it resolves the
        # runtime and model (validateRuntimeAndModelResolution's lookup).
        weighed = results[-1] if self.when[EffectWhen.WEBHOOK_RESOLVES] else None
        admission = evaluator.admission(self.isvc, self.cluster, tuple(shown), weighed)
        if message is None and used is None and admission.denials:
            message = admission.denials[0].reason
        running = effective(policy, self.cluster, self.isvc, used, named)
        resolved = True
        if running.no_workload:
            # The controller handles a virtual InferenceService before it
            # resolves a model or a runtime: where the rules give its effects,
            # they replace the outcome's events, conditions and message, and
            # no runtime is used (the webhook's resolution stays in admission).
            _, virtual_events, virtual_conditions, said = self._shows(
                OUTCOMES_NOT_RESULTS, fill, message
            )
            if virtual_events or virtual_conditions or said:
                events, conditions, resolved, used = virtual_events, virtual_conditions, False, None
                message = said[0] if said else message
        return Outcome(
            isvc=self.isvc,
            version=policy.release,
            result=str(results[-1]),  # the word as text, as the JSON and the API show it
            runtime=used,
            named=named,
            message=message,
            admission=admission,
            events=tuple(events),
            conditions=tuple(conditions),
            components=running.components,
            reconcile=running.reconcile,
            reconcile_logs=running.logs,
            reconcile_rules=running.rules,
            candidates=self.candidates,
            model=self.model,
            named_check=named_check,
            no_workload=running.no_workload,
            resolved=resolved,
            cause=cause,
            hint=hint or outcome_hint(policy, results[-1]),
            field=field,
        )

    def _shows(
        self, results: tuple[str, ...], fill: dict[str, Any], message: str | None
    ) -> tuple[list[Shown], list[Event], list[StatusCondition], list[str]]:
        """What the outcomes `results` show, in force and whose `when` holds:
        the webhook's texts, the events, the conditions, and the messages
        (why no runtime is used)."""
        policy = self.policy
        rules = selection_rules(policy)
        shown: list[Shown] = []
        events: list[Event] = []
        conditions: list[StatusCondition] = []
        said: list[str] = []
        for result in map(str, results):  # the words as text, as the JSON shows them
            for effect in rules.outcomes.get(result, ()):
                if not in_force(effect.since, effect.until, policy.version):
                    continue
                if not all(
                    effect.type in self.recorded if w == EffectWhen.RECORDED else self.when[w]
                    for w in effect.when
                ):
                    continue
                text = policy.message(effect.message, **fill) if effect.message else message
                if effect.emit in (Emit.WARNING, Emit.DENIAL) and text is not None:
                    shown.append(Shown(result, effect.emit, text))
                elif effect.emit == Emit.EVENT and text is not None:
                    events.append(
                        Event(effect.type or "", effect.reason or "", text, effect.source, result)
                    )
                elif effect.emit == Emit.CONDITION:
                    conditions.append(
                        StatusCondition(
                            effect.type or "",
                            effect.status or "",
                            effect.reason or "",
                            text,
                            effect.severity,
                            result,
                        )
                    )
                elif effect.emit == Emit.MESSAGE and text is not None:
                    said.append(text)
        return shown, events, conditions, said


def select(
    policy: Policy, cluster: Cluster, isvc: Manifest, evaluator: Evaluator | None = None
) -> Outcome:
    """The runtime OME uses for `isvc` among `cluster`'s runtimes and models, and
    everything that shows it. Without `evaluator`, every step is run and every
    candidate assessed (a fleet passes one that keeps and prunes)."""
    evaluator = evaluator if evaluator is not None else Evaluator(policy, cluster)
    rules = selection_rules(policy)
    request = runtime_request(policy, isvc)
    ref = _model_reference(policy, isvc)
    case = Case(
        policy=policy,
        cluster=cluster,
        isvc=isvc,
        evaluator=evaluator,
        when=when_conditions(policy, isvc, request, isinstance(ref, ModelRef)),
        recorded=recorded_conditions(policy, isvc),
        values={
            "model": ref.name if isinstance(ref, ModelRef) else "",
            "namespace": isvc.namespace,
            "name": isvc.name,
            "kind": isvc.kind,
            "runtime": request.name if request else "",
            # The scope word of the not-found message (a Scope of the rules).
            "cluster_scope": Scope.CLUSTER,
        },
    )
    if isinstance(ref, NamelessModelRef):
        return case.finish(SelectionOutcome.MODEL_NAME_MISSING, path=ref.path, field=ref.path)
    if ref is None:
        if request is None or not in_force(rules.model_ref.optional_since, None, policy.version):
            return case.finish(
                SelectionOutcome.NO_MODEL_OR_RUNTIME,
                path=rules.model_ref.path,
                field=rules.model_ref.path,
            )
        # Since v1.3 a runtime-only InferenceService skips all model work.
        # (A finding about the runtime belongs at the field that names it.)
        return _named(case, request, None, evaluator, policy.rules.runtime_ref.name)
    namespace = isvc.namespace or ""
    model = find_model(policy, cluster, ref.kind, ref.name, namespace)
    hooked = webhook_model(policy, cluster, ref.name, namespace)
    if hooked is None or hooked is model:
        return _with_model(case, ref, model, request, evaluator)
    # The webhook and the controller find different objects: the webhook
    # admits (and resolves the runtime) with its own, the controller runs with
    # the kind's, or stops when it has none.
    at_webhook = _with_model(case, ref, hooked, request, evaluator)
    if model is None:
        at_controller = _controller_miss(case, ref)
    else:
        at_controller = _with_model(case, ref, model, request, evaluator)
    return attrs.evolve(
        at_controller,
        admission=at_webhook.admission,
        webhook_model=hooked,
        lookup=lookup_note(policy, hooked, model, ref.kind, ref.name),
    )


def webhook_model(policy: Policy, cluster: Cluster, name: str, namespace: str) -> Manifest | None:
    """The model OME's webhook finds for `name`: the kinds of the rules'
    `webhook_lookup` tried in order, whatever spec.model.kind says (None
    where the rules give no order: the webhook then finds the kind's)."""
    for kind in selection_rules(policy).model_ref.webhook_lookup:
        found = find_model(policy, cluster, kind, name, namespace)
        if found is not None:
            return found
    return None


def lookup_note(
    policy: Policy, webhook: Manifest, controller: Manifest | None, kind: str, name: str
) -> str:
    """What the webhook and the controller each use, where they find
    different models (`controller` None: the kind asked for is not there)."""
    said = f"{webhook.kind} {webhook.ref}"
    if controller is not None:
        return policy.message("models_differ", webhook=said, controller=f"{kind} {controller.ref}")
    log = selection_rules(policy).model_ref.controller_miss_log
    return policy.message(
        "controller_model_missing",
        webhook=said,
        controller=f"{kind} {name}",
        log=policy.message(log, kind=kind) if log else "",
    )


def _controller_miss(case: Case, ref: ModelRef) -> Outcome:
    """The controller does not find the model as its kind (the webhook found
    it by name): OME's manager logs the API server's error and stops, with no
    workload and no event."""
    policy, cluster = case.policy, case.cluster
    lookup = selection_rules(policy).model_ref
    resource = selection_rules(policy).explain.resources.get(ref.kind, ref.kind)
    error, log = lookup.controller_miss_error, lookup.controller_miss_log
    models = {r.kind for r in policy.rules.manifests.models}
    found = case.finish(
        SelectionOutcome.MODEL_MISSING,
        message=policy.message(error, resource=resource, model=ref.name) if error else None,
        hint=found_elsewhere(ref.name, cluster, models)
        or did_you_mean(ref.name, _models_for(policy, cluster, ref.kind, case.isvc.namespace)),
        field=f"{lookup.path}.{lookup.name}",
    )
    return attrs.evolve(found, controller_log=policy.message(log, kind=ref.kind) if log else None)


def _with_model(
    case: Case,
    ref: ModelRef,
    model: Manifest | None,
    request: RuntimeRefRequest | None,
    evaluator: Evaluator,
) -> Outcome:
    """Selection for `case` with `model`, the model found for `ref` (None: none)."""
    policy, cluster, isvc = case.policy, case.cluster, case.isvc
    rules = selection_rules(policy)
    # The fields a finding about the model, or the runtime, belongs at.
    model_field = f"{rules.model_ref.path}.{rules.model_ref.name}"
    runtime_field = policy.rules.runtime_ref.name
    if model is None:
        models = {r.kind for r in policy.rules.manifests.models}
        hint = found_elsewhere(ref.name, cluster, models) or did_you_mean(
            ref.name, _models_for(policy, cluster, ref.kind, isvc.namespace)
        )
        return case.finish(
            "model_missing",
            message=policy.message("model_not_found", **case.values),
            hint=hint,
            field=model_field,
        )
    case = attrs.evolve(case, model=model)
    facts = evaluator.model_facts(model)
    if facts.disabled:
        return case.finish(
            "model_disabled",
            message=policy.message("model_disabled", **case.values),
            cause=model,
            field=model_field,
        )
    sharded = rules.sharded
    if (
        sharded is not None
        and in_force(sharded.since, sharded.until, policy.version)
        and facts.distribution == sharded.value
    ):
        return case.finish(
            SelectionOutcome.MODEL_SHARDED,
            message=policy.message("model_sharded"),
            cause=model,
            field=model_field,
        )
    now = _with_facts(case, request, facts, evaluator, model_field, runtime_field)
    waiting = waiting_fields(policy, facts)
    if not waiting:
        settled = settled_hint(policy, facts) if now.cause is model else None
        if settled is not None and now.result in rules.hints:
            # The rules' hint says to wait for the model agent, which is done
            # with this model (or skips it): say what to do instead.
            return attrs.evolve(now, hint=settled)
        return now
    # The model waits for OME's model agent: what OME does once it is filled
    # in (the checks reading a missing field pending), with what it answers
    # until then.
    waits = attrs.evolve(facts, waiting=waiting)
    later = _with_facts(case, request, waits, evaluator, model_field, runtime_field, now)
    pending = PendingModel(
        model=model,
        fields=tuple(field_names(policy, waiting)),
        answer=_answer(now),
        runtimes=later.pending.runtimes if later.pending is not None else (),
    )
    return attrs.evolve(later, pending=pending)


def _with_facts(
    case: Case,
    request: RuntimeRefRequest | None,
    facts: ModelFacts,
    evaluator: Evaluator,
    model_field: str,
    runtime_field: str,
    now: Outcome | None = None,
) -> Outcome:
    """Selection for the model `facts` describes. With `facts.waiting`, the
    checks reading a missing field are pending, and with no runtime named the
    outcome is pending with the runtimes that could be picked; where none
    could, `now` (what OME answers until then) with the reasons as its hint."""
    policy, cluster, isvc, model = case.policy, case.cluster, case.isvc, case.model
    ctx = make_context(
        policy, cluster, facts, isvc, isvc.namespace or "", compare=evaluator.comparisons()
    )
    candidates = evaluator.candidates(ctx)
    case = attrs.evolve(
        case, candidates=candidates, values={**case.values, "format": facts.format_name}
    )
    if request is not None:
        if (
            not facts.format_name
            and ModelField.FORMAT not in facts.waiting
            and _in_force(policy, SelectionOutcome.NAMED_MODEL_INVALID)
        ):
            # Checked before the runtime is looked up, where the rules say so.
            message = policy.message("model_format_required")
            return case.finish(
                SelectionOutcome.NAMED_MODEL_INVALID,
                message=message,
                cause=model,
                field=model_field,
            )
        return _named(case, request, ctx, evaluator, runtime_field)
    if facts.waiting and now is not None:
        return _pending(case, ctx, evaluator, now, model_field)
    if not facts.format_name:
        return case.finish(
            SelectionOutcome.MODEL_FORMAT_MISSING,
            message=policy.message("model_format_required"),
            cause=model,
            field=model_field,
        )
    picked = evaluator.best(ctx, candidates)
    if picked is not None:
        return case.finish(
            SelectionOutcome.PICKED, used=picked.runtime, runtime=picked.name, field=model_field
        )
    return case.finish(
        SelectionOutcome.NONE, message=evaluator.no_runtime(ctx, candidates), field=model_field
    )


def _answer(now: Outcome) -> str | None:
    """What OME answers an InferenceService at admission: its denial, else its
    warnings; None when it admits it without a word."""
    admission = now.admission
    if not admission.allowed:
        return admission.message
    return " ".join(admission.warnings) or None


def _pending(case: Case, ctx: Context, evaluator: Evaluator, now: Outcome, field: str) -> Outcome:
    """No runtime named, the model waiting for OME's model agent: pending with
    the runtimes that pass every check decided now; where none does, what OME
    answers now (an error now), with why none could be picked as its hint:
    every runtime with the check it fails first (those OME's own message
    leaves unnamed too), or that there is no runtime at all."""
    policy = case.policy
    agent = model_agent(policy)
    assert agent is not None
    could = evaluator.could_pick(ctx)
    if could:
        message = policy.message(agent.could_pick, runtimes=", ".join(could), who=agent.who)
        outcome = case.finish(SelectionOutcome.PENDING, message=message, field=field)
        assert case.model is not None
        return attrs.evolve(outcome, pending=PendingModel(case.model, (), None, could))
    rules = selection_rules(policy).no_runtime
    scope = scoring.scope_order(policy)
    excluded = sorted(evaluator.first_failures(ctx), key=lambda c: (c.name, scope(c.scope)))
    items = rules.item_separator.join(
        policy.message("excluded_runtime", runtime=c.name, reason=c.reason) for c in excluded
    ) or policy.message(agent.no_runtimes, namespace=ctx.namespace)
    hint = policy.message(agent.none_could, excluded=items, who=agent.who)
    return attrs.evolve(now, candidates=case.candidates, hint=hint)


def outcome_hint(policy: Policy, outcome: str) -> str | None:
    """What the rules tell the user to do about an outcome (`selection.hints`)."""
    hints = selection_rules(policy).hints
    return policy.message(hints[outcome]) if outcome in hints else None


def _in_force(policy: Policy, outcome: str) -> bool:
    """Whether an outcome shows anything in this version."""
    effects = selection_rules(policy).outcomes.get(outcome, ())
    return any(in_force(e.since, e.until, policy.version) for e in effects)


def disabled_refusal(policy: Policy, view: RuntimeView) -> str | None:
    """Why OME refuses a named runtime that is disabled (its inherited spec
    read, as `view` holds it), whatever the model; None when it is not."""
    rules = selection_rules(policy)
    runtime = view.runtime
    if not read(view.holder, rules.runtime.disabled, bool, runtime.location):
        return None
    return policy.message(
        "named_runtime_disabled", scope=rules.scope_words[runtime.scope], runtime=runtime.name
    )


def _named(
    case: Case, request: RuntimeRefRequest, ctx: Context | None, evaluator: Evaluator, field: str
) -> Outcome:
    """The runtime the InferenceService names (at `field`): used even when its
    checks fail."""
    policy, rules = case.policy, selection_rules(case.policy)
    runtime = find_named_runtime(policy, case.cluster, case.isvc, request)
    if runtime is None:
        key = (
            "serving_runtime_not_found"
            if case.when[EffectWhen.KIND_NAMESPACE]
            else "runtime_not_found_anywhere"
        )
        runtimes = {r.kind for r in policy.rules.manifests.runtimes}
        hint = found_elsewhere(request.name, case.cluster, runtimes) or did_you_mean(
            request.name, [r.name for r in case.cluster.runtimes_for(case.isvc.namespace)]
        )
        return case.finish(
            SelectionOutcome.RUNTIME_MISSING,
            message=policy.message(key, **case.values),
            hint=hint,
            field=field,
        )
    try:
        view = evaluator.named_view(runtime)
    except InheritanceError as exc:
        return case.finish(
            SelectionOutcome.CHAIN_BROKEN, message=exc.message, cause=runtime, field=field
        )
    message = disabled_refusal(policy, view)
    if message is not None:
        return case.finish(
            SelectionOutcome.RUNTIME_DISABLED, message=message, cause=runtime, field=field
        )
    if ctx is None:
        return case.finish(SelectionOutcome.NAMED, used=runtime, named=True, field=field)
    check = evaluator.named_check(ctx, runtime, view)
    if check.compatible:
        return case.finish(
            SelectionOutcome.NAMED, used=runtime, named=True, named_check=check, field=field
        )
    failed = next(c for c in rules.checks if c.id == check.failed_check)
    detail = policy.message(
        "unsupported_detail",
        runtime=runtime.name,
        model_slot=ctx.model.format_name if failed.model_slot == ModelSlot.FORMAT else "",
        reason=check.reason,
    )
    return case.finish(
        SelectionOutcome.NAMED,
        SelectionOutcome.NAMED_UNSUPPORTED,
        used=runtime,
        named=True,
        named_check=check,
        detail=detail,
        cause=runtime,
        field=field,
    )


def _models_for(policy: Policy, cluster: Cluster, kind: str, namespace: str | None) -> list[str]:
    """The names of the models of `kind` an InferenceService in `namespace` can name."""
    scope = next((r.scope for r in policy.rules.manifests.models if r.kind == kind), None)
    return [
        m.name
        for m in cluster.models
        if m.kind == kind and (scope == Scope.CLUSTER or m.namespace == namespace)
    ]


# How many names, closest first by shared letter pairs, difflib ranks for a
# "did you mean": difflib alone compares every name of a large cluster.
_SHORTLIST = 12


def found_elsewhere(name: str, cluster: Cluster, kinds: set[str]) -> str | None:
    """Where an object of one of `kinds` and of that very name is, when the lookup
    missed it: another namespace, or another kind than the one asked for."""
    there = [m for m in cluster.named.get(name, ()) if m.kind in kinds]
    if not there:
        return None
    places = [f'{m.kind} "{m.ref}"' for m in there]  # NAMESPACE/NAME when namespaced
    return " and ".join(places) + (" exists" if len(places) == 1 else " exist")


def did_you_mean(name: str, names: list[str]) -> str | None:
    """`did you mean "x"?` for the names closest to a misspelled one (difflib's
    ranking over the names sharing the most letter pairs with it), else None."""
    return _suggestion(name, tuple(dict.fromkeys(names)))


# A fleet names the same missing runtime from many InferenceServices.
@functools.lru_cache(maxsize=1024)
def _suggestion(name: str, unique: tuple[str, ...]) -> str | None:
    import difflib  # only when a name is not found
    import heapq

    # A name written in another case is the closest there is (modes are
    # case-sensitive: `omenative` is no mode).
    close = [other for other in unique if other.casefold() == name.casefold()]
    if not close:
        pairs = _pairs(name)
        shortlist = heapq.nlargest(
            _SHORTLIST, unique, key=lambda other: _shared(pairs, _pairs(other))
        )
        close = difflib.get_close_matches(name, shortlist, n=3)
    if not close:
        return None
    return "did you mean " + " or ".join(f'"{c}"' for c in close) + "?"


@functools.lru_cache(maxsize=4096)
def _pairs(text: str) -> frozenset[str]:
    return frozenset(text[i : i + 2] for i in range(len(text) - 1))


def _shared(mine: frozenset[str], theirs: frozenset[str]) -> float:
    """Dice's coefficient of two sets of letter pairs."""
    total = len(mine) + len(theirs)
    return 2 * len(mine & theirs) / total if total else 0.0
