"""`modetable admit`'s answer: the admission verdict, every check modetable
models in OME's order."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from modetable.views.common import AdmissionView, RulesView

if TYPE_CHECKING:
    from modetable.admission import Admission
    from modetable.rules.policy import Policy

__all__ = ["AdmitView"]


@attrs.frozen
class AdmitView:
    """What `modetable admit -o json` prints (docs/json.md)."""

    admission: AdmissionView
    version: str
    rules: RulesView

    @classmethod
    def of(cls, policy: Policy, admission: Admission) -> AdmitView:
        return cls(
            admission=AdmissionView.of(admission),
            version=policy.release,
            rules=RulesView.of(policy),
        )
