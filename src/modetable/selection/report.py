"""The JSON contract of `modetable select` (docs/json.md), and of a candidate."""

from __future__ import annotations

from typing import Any

from modetable.admission import admission_json
from modetable.engine.modes import Verdict, resolution_json
from modetable.inputs.manifests import object_json, runtime_json
from modetable.rules.policy import Policy
from modetable.rules.words import ConditionWord
from modetable.selection.checks import Candidate, CheckResult, CheckState
from modetable.selection.outcome import Outcome
from modetable.selection.rules import selection_rules
from modetable.text.templates import fill

__all__ = ["candidate_json", "check_json", "outcome_json", "trace_lines"]


def candidate_json(candidate: Candidate) -> dict[str, Any]:
    return {
        "name": candidate.name,
        "kind": candidate.kind,
        "scope": candidate.scope_label,
        "compatible": candidate.compatible,
        "reason": candidate.reason,
        "check": candidate.failed_check,
        "priority": candidate.priority,
        "weight": candidate.weight,
        "score": candidate.score,
    }


def check_json(result: CheckResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "check": result.check,
        "state": str(result.state),  # the word itself: JSON holds text
        "reason": result.reason,
        "inputs": [{"what": what, "value": value} for what, value in result.inputs],
    }
    if result.skip_note is not None:
        data["note"] = result.skip_note
    if result.match is not None:
        data["components"] = {
            c.component: {
                "row": c.row,
                "outcome": c.outcome,
                "requested": resolution_json(c.requested, trace=False),
                "declared": resolution_json(c.declared, trace=False),
            }
            for c in result.match.components
        }
    return data


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """`modetable select -o json`: the runtime used, the messages, admission,
    events, conditions, each component's running mode, and the candidates."""
    named_check = outcome.named_check
    return {
        "isvc": outcome.isvc.ref,
        "version": outcome.version,
        "result": outcome.result,
        "runtime": runtime_json(outcome.runtime),
        "named": outcome.named,
        "message": outcome.message,
        "admission": admission_json(outcome.admission),
        "events": [
            {"type": e.type, "reason": e.reason, "message": e.message, "outcome": e.outcome}
            for e in outcome.events
        ],
        "conditions": [
            {
                "type": c.type,
                "status": c.status,
                "reason": c.reason,
                "message": c.message,
                "severity": c.severity,
                "outcome": c.outcome,
            }
            for c in outcome.conditions
        ],
        "components": {
            name: resolution_json(r, trace=False) for name, r in outcome.components.items()
        },
        "reconcile": dict(outcome.reconcile),
        "reconcile_rules": dict(outcome.reconcile_rules),
        "reconcile_logs": dict(outcome.reconcile_logs),
        "candidates": [candidate_json(c) for c in outcome.candidates],
        "named_check": candidate_json(named_check) if named_check else None,
        "cause": object_json(outcome.cause),
        "hint": outcome.hint,
        "read_from": str(outcome.isvc.read_from),
        "model": object_json(outcome.model),
        "webhook_model": object_json(outcome.webhook_model),
        "controller_log": outcome.controller_log,
        "lookup": outcome.lookup,
    }


def trace_lines(policy: Policy, candidate: Candidate) -> list[str]:
    """One runtime's checks in order, each with what it read; for the mode check,
    which source gave each side's mode and which were passed over, and why."""
    rules = selection_rules(policy)
    words = rules.explain.words
    verdict = rules.explain.yes if candidate.compatible else rules.explain.no
    lines = [f"{candidate.name} ({candidate.kind}, {candidate.scope_label}): {verdict}"]
    failed = False
    for number, result in enumerate(candidate.checks, start=1):
        if result.state == CheckState.SKIPPED:
            lines.append(f"{number}. {result.check}: {result.skip_note}")
            continue
        state = words["failed"] if result.failed else words["passed"]
        late = f"; {words['not_reached']}" if failed else ""
        lines.append(f"{number}. {result.check}: {state}{late}")
        if result.reason:
            lines.append(f"     {result.reason}")
        lines.extend(f"     {what}: {value}" for what, value in result.inputs)
        if result.match is not None:
            lines.extend(_mode_lines(policy, result))
        failed = failed or result.failed
    return lines


def _mode_lines(policy: Policy, result: CheckResult) -> list[str]:
    assert result.match is not None
    matching = policy.rules.matching
    lines = []
    for c in result.match.components:
        component = policy.components_by_name[c.component]
        values = policy.placeholder_values(component)
        lines.append(f"     {c.component}: {c.row}, {matching.outcomes[c.outcome]}")
        for side, resolution in (("requested", c.requested), ("declared", c.declared)):
            label = fill(matching.inputs[side], values)
            used = next((r for r in resolution.readings if r.verdict == Verdict.USED), None)
            source = f" from {resolution.source_label} ({used.path})" if used else ""
            lines.append(f"       {label}: {resolution.mode or ConditionWord.NONE}{source}")
            lines.extend(f"         passed over {r.path}: {r.why}" for r in resolution.passed_over)
    return lines
