"""`modetable admit`'s answer: the admission verdict, every check modetable
models in OME's order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from modetable.settled import frozen
from modetable.views.common import AdmissionView, RulesView
from modetable.views.findings import FindingView

if TYPE_CHECKING:
    from collections.abc import Iterable

    from modetable.admission import Admission
    from modetable.reports.finding import Finding
    from modetable.rules.policy import Policy

__all__ = ["AdmitView"]


@frozen
class AdmitView:
    """What `modetable admit -o json` prints (docs/json.md)."""

    admission: AdmissionView
    # What the API server refuses by OME's CRD schema (empty unless refused).
    schema_findings: tuple[FindingView, ...]
    version: str
    rules: RulesView

    @classmethod
    def of(
        cls, policy: Policy, admission: Admission, schema_findings: Iterable[Finding] = ()
    ) -> AdmitView:
        return cls(
            admission=AdmissionView.of(admission),
            schema_findings=tuple(FindingView.of(f) for f in schema_findings),
            version=policy.release,
            rules=RulesView.of(policy),
        )
