"""The regions about runtime selection: where a rejection shows up, the selection
checks in order, and what each outcome shows."""

from __future__ import annotations

from modetable.docs.common import docs_of, range_note, required, rules_location
from modetable.errors import ModetableError
from modetable.output.markdown import code, table, words
from modetable.rules.model.selection import Effect, Selection
from modetable.rules.policy import Policy
from modetable.rules.words import Emit, ModelSlot
from modetable.text.templates import fill
from modetable.versions import describe_range, in_force

__all__ = ["rejection_table", "selection_checks", "selection_outcomes"]

# --- where a rejection shows up ----------------------------------------------------------


def rejection_table(policy: Policy) -> str:
    """Where a rejection shows up: what the owner of an InferenceService sees."""
    rejection = docs_of(policy).rejection_table
    rows = []
    for row in rejection.rows:
        if not in_force(row.since, row.until, policy.version):
            continue
        sentences = []
        for sentence in row.shows:
            if not in_force(sentence.since, sentence.until, policy.version):
                continue
            said = describe_range(sentence.since, sentence.until)
            sentences.append(
                fill(sentence.text, {"range": said, "Range": said[:1].upper() + said[1:]})
            )
        rows.append([row.when, " ".join(sentences)])
    return table(rejection.headers, rows)


# --- the selection checks ----------------------------------------------------------------

# What a check's flags mean for where its failure shows (see `selection.checks`).
_CHECK_NOTES = {
    "unlisted": "counted in the no-runtime message, not listed there",
    "auto_only": "auto-selection only; a named runtime is not checked",
    "empty_slot": "a named runtime's warning leaves the model's format out (`model : ...`)",
}


def _selection(policy: Policy) -> Selection:
    return required(
        policy, policy.rules.selection, "the rules file has no selection: section to render"
    )


def selection_checks(policy: Policy) -> str:
    """The checks OME runs on each runtime, in order, with the reason each failure gives."""
    docs = docs_of(policy)
    rows = []
    checks = [c for c in _selection(policy).checks if in_force(c.since, c.until, policy.version)]
    for number, check in enumerate(checks, 1):
        label = docs.selection_checks.get(check.id, code(check.id))
        if check.message is not None:
            reasons = [policy.rules.messages[check.message].text]
        else:  # the deployment-mode check: the reasons of the matching table's rows
            reasons = [policy.rules.messages[r.message].text for r in policy.rows if r.message]
        notes = []
        if not check.listed:
            notes.append(_CHECK_NOTES["unlisted"])
        if check.auto_only:
            notes.append(_CHECK_NOTES["auto_only"])
        if check.model_slot == ModelSlot.EMPTY:
            notes.append(_CHECK_NOTES["empty_slot"])
        rows.append(
            [
                str(number),
                label + range_note(policy, check.since, check.until),
                "\n".join(code(reason) for reason in reasons),
                "; ".join(notes),
            ]
        )
    intro = "The first check a runtime fails gives its reason.\n\n"
    return intro + table(["#", "Check", "Reason when it fails", "Notes"], rows)


def _effect(policy: Policy, effect: Effect) -> str:
    docs = docs_of(policy)
    text = policy.rules.messages[effect.message].text if effect.message else None
    if effect.emit == Emit.CONDITION:
        shown = f"condition {code(effect.type or '')} {code(effect.status or '')}"
        shown += f", reason {code(effect.reason or '')}"
    elif effect.emit == Emit.EVENT:
        shown = f"{effect.type} event, reason {code(effect.reason or '')}"
    elif effect.emit == Emit.DENIAL:
        shown = f"denied ({effect.stage})"
    else:
        shown = effect.emit
    if text is not None:
        shown += f": {code(text)}"
    if effect.when:
        conditions = [docs.effect_conditions.get(w, code(w)) for w in effect.when]
        shown += f", when {words(conditions, 'and')}"
    return shown + range_note(policy, effect.since, effect.until)


def selection_outcomes(policy: Policy) -> str:
    """What OME shows for each outcome of selection, in this version."""
    docs = docs_of(policy)
    outcomes = _selection(policy).outcomes
    rows = []
    for outcome, label in docs.selection_outcomes.items():
        if outcome not in outcomes:
            known = ", ".join(outcomes)
            raise ModetableError(
                f"docs.selection_outcomes names {outcome!r}, which selection.outcomes "
                f"does not define (it defines: {known})",
                rules_location(policy),
            )
        effects = [
            _effect(policy, e)
            for e in outcomes[outcome]
            if in_force(e.since, e.until, policy.version)
        ]
        rows.append([label, "\n".join(effects) if effects else "nothing"])
    return table(["Outcome", "What OME shows"], rows)
