"""`kubectl ome runtime explain`, offline: every runtime of a namespace and the
cluster against a model (or an InferenceService and its model), the table's
rows in its order, the few of them shown by default (`brief`), and one
runtime's full trace."""

from __future__ import annotations

import attrs

from modetable.engine.runtimes import runtime_request
from modetable.errors import ModetableError
from modetable.inputs.fields import read
from modetable.inputs.formats import model_facts
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.policy import Policy
from modetable.rules.words import SelectionOutcome, SelectionStep
from modetable.selection.checks import Candidate, Context, make_context, runtime_view
from modetable.selection.evaluate import Evaluator, assess
from modetable.selection.outcome import (
    did_you_mean,
    find_model,
    lookup_note,
    outcome_hint,
)
from modetable.selection.pending import settled_hint
from modetable.selection.rules import selection_rules
from modetable.selection.scoring import scope_order
from modetable.settled import frozen

__all__ = [
    "CLOSEST",
    "Brief",
    "Explanation",
    "brief",
    "explain_isvc",
    "explain_model",
    "rows",
    "why",
]

# How many of the runtimes that came closest explain shows when none qualifies.
CLOSEST = 3


@frozen(eq=False)
class Explanation:
    namespace: str
    model: Manifest
    isvc: Manifest | None
    context: Context
    candidates: tuple[Candidate, ...]
    # What explain writes to stderr first (the InferenceService names a runtime).
    note: str | None = None
    # The model, when it is what keeps every runtime out (it has no format name),
    # and what to do about it (the rules' hint for that outcome).
    cause: Manifest | None = None
    hint: str | None = None
    # Where the controller finds another model than the webhook (and explain)
    # for the InferenceService: what each uses (`outcome.lookup_note`).
    lookup: str | None = None


def _lookup_model(policy: Policy, cluster: Cluster, name: str, namespace: str) -> Manifest:
    """The model as explain finds it: by name, in `explain_lookup`'s kind order."""
    rules = selection_rules(policy)
    kinds = rules.model_ref.explain_lookup
    for kind in kinds:
        found = find_model(policy, cluster, kind, name, namespace)
        if found is not None:
            return found
    resource = rules.explain.resources.get(kinds[-1], kinds[-1])
    message = policy.message("explain_model_not_found", resource=resource, model=name)
    names = [
        m.name
        for m in cluster.models
        if m.kind in kinds and (m.namespace is None or m.namespace == namespace)
    ]
    hint = did_you_mean(name, names)
    raise ModetableError(f"{message} ({hint})" if hint else message)


def explain_model(policy: Policy, cluster: Cluster, name: str, namespace: str) -> Explanation:
    model = _lookup_model(policy, cluster, name, namespace)
    return _explain(policy, cluster, model, None, namespace)


def explain_isvc(policy: Policy, cluster: Cluster, isvc: Manifest) -> Explanation:
    """Against the InferenceService's model, its accelerator classes and modes."""
    rules = selection_rules(policy).model_ref
    ref = read(isvc.body, rules.path, dict, isvc.location)
    name = read(ref, rules.name, str, isvc.location) if ref is not None else None
    if not name:
        raise ModetableError(policy.message("explain_no_model", kind=isvc.kind, name=isvc.name))
    namespace = isvc.namespace or ""
    model = _lookup_model(policy, cluster, name, namespace)
    note = policy.message("explain_named_note") if runtime_request(policy, isvc) else None
    found = _explain(policy, cluster, model, isvc, namespace, note)
    kind = read(ref, rules.kind, str, isvc.location) or rules.default_kind
    controller = find_model(policy, cluster, kind, name, namespace)
    if controller is model:
        return found
    return attrs.evolve(found, lookup=lookup_note(policy, model, controller, kind, name))


def _explain(
    policy: Policy,
    cluster: Cluster,
    model: Manifest,
    isvc: Manifest | None,
    namespace: str,
    note: str | None = None,
) -> Explanation:
    facts = model_facts(selection_rules(policy), model)
    ctx = make_context(policy, cluster, facts, isvc, namespace)
    candidates = Evaluator(policy, cluster).candidates(ctx)
    return Explanation(
        namespace=namespace,
        model=model,
        isvc=isvc,
        context=ctx,
        candidates=candidates,
        note=note,
        cause=model if not facts.format_name else None,
        # A model OME's model agent is done with (or skips) will not get a
        # format by waiting: its own hint.
        hint=None
        if facts.format_name
        else settled_hint(policy, facts)
        or outcome_hint(policy, SelectionOutcome.MODEL_FORMAT_MISSING),
    )


@frozen(eq=False)
class Brief:
    """What explain shows by default: the runtime picked (the first that
    qualifies) or, when none does, the few that came closest; every runtime the
    deployment-mode check rejects; and the rest counted."""

    # The candidates shown: the picked one or the closest (closest first), then
    # those the deployment-mode check rejects, in explain's order.
    shown: tuple[Candidate, ...]
    picked: Candidate | None
    # How many qualify (the picked one among them) and how many were checked.
    qualifying: int
    total: int
    # When none qualifies: the closest shown, and how many are as close.
    closest: tuple[Candidate, ...]
    as_close: int
    # The rest: how many qualify but rank lower, and how many fail each check
    # (check id, count) in the checks' order.
    ranked_lower: int
    failing: tuple[tuple[str, int], ...]

    @property
    def hidden(self) -> int:
        return self.total - len(self.shown)


def brief(policy: Policy, explanation: Explanation) -> Brief:
    """The runtimes explain shows without --all, and the others counted by the
    check that failed them.

    When none qualifies, the closest are those whose first failing check comes
    latest in the checks' order and, when that is the model-format check, whose
    nearest entry differs from the model in fewest ways: at most CLOSEST of
    them, in explain's order.
    """
    checks = selection_rules(policy).checks
    position = {check.id: index for index, check in enumerate(checks)}
    step = {check.id: check.check for check in checks}
    candidates = explanation.candidates
    qualifying = [c for c in candidates if c.compatible]
    picked = qualifying[0] if qualifying else None
    closest: list[Candidate] = []
    if picked is None and candidates:

        def distance(c: Candidate) -> tuple[int, int]:
            check = c.failed_check or ""
            fewest = (
                _differences(explanation.context, c)
                if step[check] == SelectionStep.MODEL_FORMAT
                else 0
            )
            return (-position[check], fewest)

        distances = [distance(c) for c in candidates]
        nearest = min(distances)
        closest = [c for c, d in zip(candidates, distances, strict=True) if d == nearest]
    first = [picked] if picked is not None else closest[:CLOSEST]
    mode_rejected = [
        c
        for c in candidates
        if c.failed_check is not None
        and step[c.failed_check] == SelectionStep.DEPLOYMENT_MODE
        and c not in first
    ]
    shown = (*first, *mode_rejected)
    counts: dict[str, int] = {}
    for c in candidates:
        if c not in shown and c.failed_check is not None:
            counts[c.failed_check] = counts.get(c.failed_check, 0) + 1
    return Brief(
        shown=shown,
        picked=picked,
        qualifying=len(qualifying),
        total=len(candidates),
        closest=tuple(closest[:CLOSEST]),
        as_close=len(closest),
        ranked_lower=max(len(qualifying) - 1, 0),
        failing=tuple(sorted(counts.items(), key=lambda item: position[item[0]])),
    )


def _differences(ctx: Context, candidate: Candidate) -> int:
    """In how many ways the runtime's nearest entry differs from the model."""
    view = runtime_view(ctx.policy, ctx.cluster, candidate.runtime, candidate.named)
    found = [len(ctx.compare.differences(entry, ctx.model)) for entry in view.entries]
    # No entry at all is further than any entry.
    return min(found, default=len(selection_rules(ctx.policy).formats.differences) + 1)


def rows(
    policy: Policy, explanation: Explanation, candidates: tuple[Candidate, ...] | None = None
) -> list[list[str]]:
    """RUNTIME SCOPE COMPATIBLE PRIORITY WEIGHT REASON, in explain's order (of
    every runtime, or of `candidates`)."""
    words = selection_rules(policy).explain
    table = []
    for c in explanation.candidates if candidates is None else candidates:
        shown = (
            [words.yes, str(c.priority), str(c.weight), words.empty]
            if c.compatible
            else [words.no, words.empty, words.empty, c.reason or words.empty]
        )
        table.append([c.name, c.scope_label, *shown])
    return table


def why(explanation: Explanation, name: str) -> Candidate:
    """Every check on the runtime called `name` (a namespaced one first), in order,
    including those after its first failure."""
    found = [c for c in explanation.candidates if c.name == name]
    if not found:
        names = [c.name for c in explanation.candidates]
        hint = did_you_mean(name, names)
        known = hint or "found: " + (", ".join(names[:10]) or "none")
        raise ModetableError(f"no runtime {name!r} for namespace {explanation.namespace} ({known})")
    scope = scope_order(explanation.context.policy)
    found.sort(key=lambda c: scope(c.scope))
    return assess(explanation.context, found[0].runtime, full=True)
