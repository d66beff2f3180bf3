"""`explain --why`'s trace as text: one runtime's checks in order, with what
each read."""

from __future__ import annotations

from modetable.rules.policy import Policy
from modetable.rules.words import ConditionWord, Purpose
from modetable.selection.checks import Candidate, CheckResult, CheckState
from modetable.selection.rules import selection_rules
from modetable.text.templates import fill

__all__ = ["trace_lines"]


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
        for what, value in result.inputs:
            lines.append(f"     {what}: {value}")
            lines.extend(f"       {note}" for at, note in result.notes if at == what)
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
        # The rule and the places in an operator's words (the ids are JSON's).
        decided = f"{matching.outcomes[c.outcome]}: {policy.row_words(c.row)}"
        lines.append(f"     {c.component}: {decided}")
        for side, resolution in ((Purpose.REQUESTED, c.requested), (Purpose.DECLARED, c.declared)):
            label = fill(matching.inputs[side], values)
            source = resolution.source_id
            where = f" from {policy.source_words(side, c.component, source)}" if source else ""
            lines.append(f"       {label}: {resolution.mode or ConditionWord.NONE}{where}")
            lines.extend(f"         passed over {r.path}: {r.why}" for r in resolution.passed_over)
    return lines
