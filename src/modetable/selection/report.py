"""The JSON contract of `modetable select` (docs/json.md), and of a candidate."""

from __future__ import annotations

from typing import Any

from modetable.modes import Resolution
from modetable.selection.checks import Candidate, CheckResult
from modetable.selection.outcome import Outcome


def _resolution(resolution: Resolution) -> dict[str, Any]:
    return {"mode": resolution.mode, "source": resolution.source}


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
        "state": result.state,
        "reason": result.reason,
        "inputs": [{"what": what, "value": value} for what, value in result.inputs],
    }
    if result.note is not None:
        data["note"] = result.note
    if result.match is not None:
        data["components"] = {
            c.component: {
                "row": c.row,
                "outcome": c.outcome,
                "requested": _resolution(c.requested),
                "declared": _resolution(c.declared),
            }
            for c in result.match.components
        }
    return data


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """`modetable select -o json`: the runtime used, the messages, admission,
    events, conditions, each component's running mode, and the candidates."""
    runtime = outcome.runtime
    named_check = outcome.named_check
    return {
        "isvc": outcome.isvc.ref,
        "version": outcome.version,
        "result": outcome.result,
        "runtime": {"name": runtime.name, "kind": runtime.kind} if runtime else None,
        "named": outcome.named,
        "message": outcome.message,
        "admission": {
            "allowed": outcome.admission.allowed,
            "message": outcome.admission.message,
            "warnings": list(outcome.admission.warnings),
        },
        "events": [
            {"type": e.type, "reason": e.reason, "message": e.message} for e in outcome.events
        ],
        "conditions": [
            {
                "type": c.type,
                "status": c.status,
                "reason": c.reason,
                "message": c.message,
                "severity": c.severity,
            }
            for c in outcome.conditions
        ],
        "components": {name: _resolution(r) for name, r in outcome.components.items()},
        "reconcile": dict(outcome.reconcile),
        "candidates": [candidate_json(c) for c in outcome.candidates],
        "named_check": candidate_json(named_check) if named_check else None,
    }
