"""`modetable select`'s answer: the runtime used or why none, the messages,
admission, events, conditions, each component's running mode, the candidates;
and a check on one runtime as `explain --why` shows it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from modetable.settled import frozen
from modetable.views.common import (
    OMIT_IF_NONE,
    AdmissionView,
    CandidateView,
    ObjectView,
    ResolutionView,
    RulesView,
    RuntimeView,
)

if TYPE_CHECKING:
    from modetable.rules.policy import Policy
    from modetable.selection import Outcome
    from modetable.selection.checks import CheckResult
    from modetable.selection.pending import PendingModel

__all__ = [
    "CheckView",
    "ComponentCheckView",
    "ConditionView",
    "EventView",
    "InputView",
    "OutcomeView",
    "PendingView",
    "SelectView",
]


@frozen
class EventView:
    """An event the controller records; `outcome`, the rules' selection
    outcome that gives it."""

    type: str
    reason: str
    message: str
    outcome: str | None


@frozen
class ConditionView:
    """A status condition the outcome sets on the InferenceService."""

    type: str
    status: str
    reason: str
    message: str | None
    severity: str | None
    outcome: str | None


@frozen
class PendingView:
    """The model that waits for OME's model agent: the object, the fields it
    lacks, what OME answers until they are filled in, and (no runtime named)
    the runtimes that could be picked then."""

    model: ObjectView
    fields: tuple[str, ...]
    answer: str | None
    runtimes: tuple[str, ...]

    @classmethod
    def of(cls, pending: PendingModel | None) -> PendingView | None:
        if pending is None:
            return None
        return cls(ObjectView.of(pending.model), pending.fields, pending.answer, pending.runtimes)


@frozen
class OutcomeView:
    """The outcome OME reaches for an InferenceService: select's answer, and
    each audit item's; `candidates` left out when not asked for (an audit's)."""

    isvc: str
    version: str
    result: str
    runtime: RuntimeView | None
    named: bool
    message: str | None
    admission: AdmissionView
    events: tuple[EventView, ...]
    conditions: tuple[ConditionView, ...]
    components: dict[str, ResolutionView]
    reconcile: dict[str, str]
    reconcile_rules: dict[str, str | None]
    reconcile_logs: dict[str, str]
    candidates: tuple[CandidateView, ...] | None = attrs.field(metadata=OMIT_IF_NONE)
    named_check: CandidateView | None
    cause: ObjectView | None
    hint: str | None
    read_from: str
    model: ObjectView | None
    webhook_model: ObjectView | None
    controller_log: str | None
    lookup: str | None
    # The model waits for OME's model agent (None: it does not).
    pending: PendingView | None

    @staticmethod
    def fields_of(outcome: Outcome, *, candidates: bool = True) -> dict[str, Any]:
        """The fields an outcome gives, by name (a subclass adds its own)."""
        named_check = outcome.named_check
        return {
            "isvc": outcome.isvc.ref,
            "version": outcome.version,
            "result": outcome.result,
            "runtime": RuntimeView.of(outcome.runtime),
            "named": outcome.named,
            "message": outcome.message,
            "admission": AdmissionView.of(outcome.admission),
            "events": tuple(
                EventView(e.type, e.reason, e.message, e.outcome) for e in outcome.events
            ),
            "conditions": tuple(
                ConditionView(c.type, c.status, c.reason, c.message, c.severity, c.outcome)
                for c in outcome.conditions
            ),
            "components": {
                name: ResolutionView.of(r, trace=False) for name, r in outcome.components.items()
            },
            "reconcile": dict(outcome.reconcile),
            "reconcile_rules": dict(outcome.reconcile_rules),
            "reconcile_logs": dict(outcome.reconcile_logs),
            "candidates": tuple(CandidateView.of(c) for c in outcome.candidates)
            if candidates
            else None,
            "named_check": CandidateView.of(named_check) if named_check else None,
            "cause": ObjectView.of(outcome.cause),
            "hint": outcome.hint,
            "read_from": str(outcome.isvc.read_from),
            "model": ObjectView.of(outcome.model),
            "webhook_model": ObjectView.of(outcome.webhook_model),
            "controller_log": outcome.controller_log,
            "lookup": outcome.lookup,
            "pending": PendingView.of(outcome.pending),
        }

    @classmethod
    def of(cls, outcome: Outcome, *, candidates: bool = True) -> OutcomeView:
        return cls(**cls.fields_of(outcome, candidates=candidates))


@frozen
class SelectView(OutcomeView):
    """What `modetable select -o json` prints (docs/json.md): the outcome and
    the rules read."""

    rules: RulesView

    @classmethod
    def of(cls, policy: Policy, outcome: Outcome) -> SelectView:  # type: ignore[override]
        return cls(**cls.fields_of(outcome), rules=RulesView.of(policy))


@frozen
class InputView:
    """What a check read: a name and its value; beside OME's text, the
    comparisons an ordering operator refused there, in words (the rules'
    `version_comparison`: `4.33.1 >= 4.46.0 is false: ...`), shown only when
    there are some."""

    what: str
    value: str
    comparisons: tuple[str, ...] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, what: str, value: str, notes: tuple[tuple[str, str], ...]) -> InputView:
        said = tuple(text for at, text in notes if at == what)
        return cls(what, value, said or None)


@frozen
class ComponentCheckView:
    """The deployment-mode check's decision for one component."""

    row: str
    outcome: str
    requested: ResolutionView
    declared: ResolutionView


@frozen
class CheckView:
    """One check on one runtime: its state, why it failed, what it read; why a
    skipped check did not run; the mode check's decision per component."""

    check: str
    state: str
    reason: str | None
    inputs: tuple[InputView, ...]
    note: str | None = attrs.field(default=None, metadata=OMIT_IF_NONE)
    components: dict[str, ComponentCheckView] | None = attrs.field(
        default=None, metadata=OMIT_IF_NONE
    )

    @classmethod
    def of(cls, result: CheckResult) -> CheckView:
        components = None
        if result.match is not None:
            components = {
                c.component: ComponentCheckView(
                    row=c.row,
                    outcome=c.outcome,
                    requested=ResolutionView.of(c.requested, trace=False),
                    declared=ResolutionView.of(c.declared, trace=False),
                )
                for c in result.match.components
            }
        return cls(
            check=result.check,
            state=str(result.state),  # the word itself: JSON holds text
            reason=result.reason,
            inputs=tuple(InputView.of(what, value, result.notes) for what, value in result.inputs),
            note=result.skip_note,
            components=components,
        )
