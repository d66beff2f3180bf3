"""`modetable effective`'s answer: each component's running mode and the rule
that set it, with the run-time failures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from modetable.settled import frozen
from modetable.views.common import ResolutionView, RulesView, RuntimeView

if TYPE_CHECKING:
    from modetable.engine.running import Effective
    from modetable.inputs.manifests import Manifest
    from modetable.rules.policy import Policy

__all__ = ["EffectiveView"]


@frozen
class EffectiveView:
    """What `modetable effective -o json` prints (docs/json.md)."""

    isvc: str
    version: str
    runtime: RuntimeView | None
    named: bool
    components: dict[str, ResolutionView]
    reconcile: dict[str, str]
    reconcile_logs: dict[str, str]
    message: str | None
    rules: RulesView

    @classmethod
    def of(
        cls, policy: Policy, isvc: Manifest, found: Effective, message: str | None
    ) -> EffectiveView:
        return cls(
            isvc=isvc.ref,
            version=policy.release,
            runtime=RuntimeView.of(found.runtime),
            named=found.named,
            components={
                name: ResolutionView.of(r, trace=False) for name, r in found.components.items()
            },
            reconcile=dict(found.reconcile),
            reconcile_logs=dict(found.logs),
            message=message,
            rules=RulesView.of(policy),
        )
