"""`modetable explain`'s answer: every runtime against a model (or an
InferenceService and its model), and with --why one runtime's every check."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from modetable.settled import frozen
from modetable.views.common import OMIT_IF_NONE, CandidateView, ObjectView, RulesView
from modetable.views.select import CheckView

if TYPE_CHECKING:
    from modetable.rules.policy import Policy
    from modetable.selection.checks import Candidate
    from modetable.selection.explain import Explanation

__all__ = ["ExplainView", "ModelView", "WhyView"]


@frozen
class ModelView:
    """The model the runtimes are checked against."""

    name: str
    kind: str
    read_from: str


@frozen
class WhyView:
    """`--why NAME`: every check on that runtime, in order."""

    name: str
    kind: str
    checks: tuple[CheckView, ...]

    @classmethod
    def of(cls, candidate: Candidate) -> WhyView:
        checks = tuple(CheckView.of(c) for c in candidate.checks)
        return cls(name=candidate.name, kind=candidate.kind, checks=checks)


@frozen
class ExplainView:
    """What `modetable explain -o json` prints (docs/json.md)."""

    isvc: str | None
    model: ModelView
    namespace: str
    version: str
    note: str | None
    runtimes: tuple[CandidateView, ...]
    cause: ObjectView | None
    hint: str | None
    lookup: str | None
    # Both by keyword: `why` (shown only when asked for) stays before `rules`.
    why: WhyView | None = attrs.field(default=None, kw_only=True, metadata=OMIT_IF_NONE)
    rules: RulesView = attrs.field(kw_only=True)

    @classmethod
    def of(
        cls, policy: Policy, explanation: Explanation, why: Candidate | None = None
    ) -> ExplainView:
        return cls(
            isvc=explanation.isvc.ref if explanation.isvc else None,
            model=ModelView(
                explanation.model.name, explanation.model.kind, str(explanation.model.read_from)
            ),
            namespace=explanation.namespace,
            version=policy.release,
            note=explanation.note,
            runtimes=tuple(CandidateView.of(c) for c in explanation.candidates),
            cause=ObjectView.of(explanation.cause),
            hint=explanation.hint,
            lookup=explanation.lookup,
            why=WhyView.of(why) if why is not None else None,
            rules=RulesView.of(policy),
        )
