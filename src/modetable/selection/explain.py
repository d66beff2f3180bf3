"""`kubectl ome runtime explain`, offline: every runtime of a namespace and the
cluster against a model (or an InferenceService and its model), the table's
rows in its order, and one runtime's full trace."""

from __future__ import annotations

import attrs

from modetable.engine.runtimes import runtime_request
from modetable.errors import ModetableError
from modetable.inputs.fields import read
from modetable.inputs.formats import model_facts
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.policy import Policy
from modetable.rules.words import SelectionOutcome
from modetable.selection.checks import Candidate, Context, assess, make_context, order
from modetable.selection.outcome import (
    did_you_mean,
    find_model,
    outcome_hint,
)
from modetable.selection.rules import selection_rules
from modetable.selection.scoring import scope_order

__all__ = ["Explanation", "explain_isvc", "explain_model", "rows", "why"]


@attrs.frozen(eq=False)
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
    return _explain(policy, cluster, model, isvc, namespace, note)


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
    candidates = order(policy, [assess(ctx, r) for r in cluster.runtimes_for(namespace)])
    return Explanation(
        namespace=namespace,
        model=model,
        isvc=isvc,
        context=ctx,
        candidates=candidates,
        note=note,
        cause=model if not facts.format_name else None,
        hint=None
        if facts.format_name
        else outcome_hint(policy, SelectionOutcome.MODEL_FORMAT_MISSING),
    )


def rows(policy: Policy, explanation: Explanation) -> list[list[str]]:
    """RUNTIME SCOPE COMPATIBLE PRIORITY WEIGHT REASON, in explain's order."""
    words = selection_rules(policy).explain
    table = []
    for c in explanation.candidates:
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
