"""`modetable match`'s answer: every runtime against an InferenceService on
the mode rule alone, each component's decision with both sides' sources."""

from __future__ import annotations

from typing import TYPE_CHECKING

from modetable.settled import frozen
from modetable.views.common import ResolutionView, RulesView

if TYPE_CHECKING:
    from modetable.engine.matching import RuntimeMatch
    from modetable.engine.modes import Resolution
    from modetable.engine.runtimes import InheritanceError
    from modetable.inputs.manifests import Manifest
    from modetable.rules.policy import Policy

__all__ = ["ComponentMatchView", "MatchView", "MatchedView"]

# A runtime whose inheritance chain is broken: no match, the webhook's error.
_ERROR = "error"
_PASS = "pass"


@frozen
class ComponentMatchView:
    """One component's row of the matching table, and each side's mode."""

    row: str
    outcome: str
    reason: str | None
    requested: ResolutionView
    declared: ResolutionView


@frozen
class MatchedView:
    """One runtime against the InferenceService: `pass`, `reject` (the row that
    rejects and why) or `error` (its chain is broken: the reason)."""

    name: str
    kind: str
    scope: str
    named: bool
    result: str
    reason: str | None
    row: str | None
    components: dict[str, ComponentMatchView]

    @property
    def passed(self) -> bool:
        """The mode rule passes the runtime (`result` is `pass`)."""
        return self.result == _PASS

    @property
    def broken(self) -> bool:
        """The runtime's inheritance chain is broken (`result` is `error`)."""
        return self.result == _ERROR

    @classmethod
    def of(
        cls,
        policy: Policy,
        runtime: Manifest,
        named: bool,
        match: RuntimeMatch | None,
        error: InheritanceError | None,
    ) -> MatchedView:
        scope = policy.rules.manifests.scope_labels[runtime.scope]
        if match is None:
            reason = error.message if error else None
            return cls(runtime.name, runtime.kind, scope, named, _ERROR, reason, None, {})
        rejection = match.rejection
        components = {
            c.component: ComponentMatchView(
                row=c.row,
                outcome=c.outcome,
                reason=c.reason,
                requested=ResolutionView.of(c.requested),
                declared=ResolutionView.of(c.declared),
            )
            for c in match.components
        }
        return cls(
            name=runtime.name,
            kind=runtime.kind,
            scope=scope,
            named=named,
            result=_PASS if match.passed else "reject",
            reason=match.reason,
            row=rejection.row if rejection else None,
            components=components,
        )


@frozen
class MatchView:
    """What `modetable match -o json` prints (docs/json.md)."""

    isvc: str
    version: str
    requested: dict[str, ResolutionView]
    runtimes: tuple[MatchedView, ...]
    rules: RulesView

    @classmethod
    def of(
        cls,
        policy: Policy,
        isvc: Manifest,
        requested: dict[str, Resolution],
        runtimes: tuple[MatchedView, ...],
    ) -> MatchView:
        return cls(
            isvc=isvc.ref,
            version=policy.release,
            requested={name: ResolutionView.of(r) for name, r in requested.items()},
            runtimes=runtimes,
            rules=RulesView.of(policy),
        )
