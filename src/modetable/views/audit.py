"""`modetable audit`'s answer: each InferenceService's outcome with what is
wrong with it and the deprecated modes it runs in, the manifests' findings,
the summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from modetable.views.common import FLATTEN, RulesView, key, same_named
from modetable.views.findings import FindingView
from modetable.views.select import OutcomeView

if TYPE_CHECKING:
    from modetable.audit.fleet import Audited, AuditSummary, Change, Deprecation
    from modetable.inputs.manifests import Manifest
    from modetable.rules.policy import Policy

__all__ = [
    "AuditItemView",
    "AuditSummaryView",
    "AuditTrailerView",
    "AuditView",
    "ChangeView",
    "DeprecationView",
    "IdentityView",
]


@attrs.frozen
class IdentityView:
    """An InferenceService's namespace, name and where it is written: the
    first keys of an audit's item and of an upgrade's."""

    namespace: str | None
    name: str
    at: str

    @classmethod
    def of(cls, isvc: Manifest) -> IdentityView:
        return cls(namespace=isvc.namespace, name=isvc.name, at=str(isvc.location))


@attrs.frozen
class ChangeView:
    """One thing in a spec that a mode move breaks, and what to do about it."""

    owner: str = attrs.field(metadata=key("in"))
    path: str
    what: str
    name: str
    replacement: str
    message: str
    at: str | None

    @classmethod
    def of(cls, change: Change) -> ChangeView:
        hit = change.hit
        at = str(hit.location) if hit.location else None
        return same_named(cls, hit, owner=change.owner, message=change.message, at=at)


@attrs.frozen
class DeprecationView:
    """A component running in a deprecated mode, and the move to its replacement."""

    component: str
    mode: str
    source: str | None
    replacement: str | None
    message: str
    changes: tuple[ChangeView, ...]

    @classmethod
    def of(cls, deprecation: Deprecation) -> DeprecationView:
        changes = tuple(ChangeView.of(c) for c in deprecation.changes)
        return same_named(cls, deprecation, changes=changes)


@attrs.frozen
class AuditItemView:
    """One InferenceService of an audit: select's answer with its identity,
    problems, deprecations and findings; its candidates only when asked for
    (a fleet has too many)."""

    identity: IdentityView = attrs.field(metadata=FLATTEN)
    outcome: OutcomeView = attrs.field(metadata=FLATTEN)
    problems: tuple[str, ...]
    deprecations: tuple[DeprecationView, ...]
    findings: tuple[FindingView, ...]

    @classmethod
    def of(cls, audited: Audited, *, candidates: bool = False) -> AuditItemView:
        return cls(
            identity=IdentityView.of(audited.isvc),
            outcome=OutcomeView.of(audited.outcome, candidates=candidates),
            problems=audited.problems,
            deprecations=tuple(DeprecationView.of(d) for d in audited.deprecations),
            findings=tuple(FindingView.of(f) for f in audited.findings),
        )


@attrs.frozen
class AuditSummaryView:
    """The counts at the end of an audit: InferenceServices by problem (a key
    each), result, component mode and most severe finding; every finding by
    severity."""

    version: str
    isvcs: int
    ok: int
    problems: dict[str, int] = attrs.field(metadata=FLATTEN)
    deprecated: int
    results: dict[str, int]
    modes: dict[str, dict[str, int]]
    severity: dict[str, int]
    findings: dict[str, int]

    @classmethod
    def of(cls, summary: AuditSummary) -> AuditSummaryView:
        return cls(
            version=summary.policy.release,
            isvcs=summary.isvcs,
            ok=summary.ok,
            problems=dict(summary.problems),
            deprecated=summary.deprecated,
            results=dict(sorted(summary.results.items())),
            modes={c: dict(sorted(m.items())) for c, m in summary.modes.items() if m},
            severity=dict(summary.severity),
            findings=dict(summary.findings),
        )


@attrs.frozen
class AuditTrailerView:
    """What follows an audit's `items`: made once every item is."""

    manifest_findings: tuple[FindingView, ...]
    summary: AuditSummaryView
    rules: RulesView

    @classmethod
    def of(cls, policy: Policy, summary: AuditSummary) -> AuditTrailerView:
        return cls(
            manifest_findings=tuple(FindingView.of(f) for f in summary.manifest_findings),
            summary=AuditSummaryView.of(summary),
            rules=RulesView.of(policy),
        )


@attrs.frozen
class AuditView:
    """What `modetable audit -o json` prints (docs/json.md), whole."""

    items: tuple[AuditItemView, ...]
    trailer: AuditTrailerView = attrs.field(metadata=FLATTEN)
