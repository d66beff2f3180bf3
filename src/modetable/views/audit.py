"""`modetable audit`'s answer: each InferenceService's outcome with what is
wrong with it and the deprecated modes it runs in, the manifests' findings,
the summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from modetable.settled import frozen
from modetable.views.baseline import BaselineEntryView
from modetable.views.common import FLATTEN, RulesView, key, same_named
from modetable.views.findings import FindingView
from modetable.views.select import OutcomeView

if TYPE_CHECKING:
    from modetable.audit.fleet import Audited, AuditSummary, Change, Deprecation
    from modetable.audit.triage import Ignore, Suppressed
    from modetable.inputs.baseline import BaselineEntry
    from modetable.inputs.manifests import Manifest
    from modetable.rules.policy import Policy

__all__ = [
    "AuditItemView",
    "AuditSummaryView",
    "AuditTrailerView",
    "AuditView",
    "BaselineView",
    "ChangeView",
    "DeprecationView",
    "IdentityView",
    "IgnoreView",
    "SuppressedByView",
    "SuppressedView",
]


@frozen
class IdentityView:
    """An InferenceService's namespace, name and where it is written: the
    first keys of an audit's item and of an upgrade's."""

    namespace: str | None
    name: str
    at: str

    @classmethod
    def of(cls, isvc: Manifest) -> IdentityView:
        return cls(namespace=isvc.namespace, name=isvc.name, at=str(isvc.location))


@frozen
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


@frozen
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


@frozen
class SuppressedByView:
    """The exception that suppressed a finding: how it was given, its id, why,
    where it is written (None for `--ignore`)."""

    by: str
    id: str
    reason: str | None
    at: str | None


@frozen
class SuppressedView:
    """A finding an exception suppressed: the finding's fields, then the exception."""

    finding: FindingView = attrs.field(metadata=FLATTEN)
    suppressed: SuppressedByView

    @classmethod
    def of(cls, suppressed: Suppressed) -> SuppressedView:
        ignore = suppressed.ignore
        at = str(ignore.at) if ignore.at is not None else None
        return cls(FindingView.of(suppressed.finding), same_named(SuppressedByView, ignore, at=at))


@frozen
class IgnoreView:
    """An exception (`--ignore`, the config's, an object's annotation)."""

    by: str
    id: str
    object: str | None
    kind: str | None
    reason: str | None
    at: str | None

    @classmethod
    def of(cls, ignore: Ignore) -> IgnoreView:
        return same_named(cls, ignore, at=str(ignore.at) if ignore.at is not None else None)


@frozen
class BaselineView:
    """The baseline read: its file, and its entries no finding met (fixed),
    each as the baseline file writes it."""

    file: str
    fixed: tuple[BaselineEntryView, ...]

    @classmethod
    def of(cls, file: str, fixed: list[BaselineEntry]) -> BaselineView:
        return cls(file, tuple(BaselineEntryView.of(e) for e in fixed))


@frozen
class AuditItemView:
    """One InferenceService of an audit: select's answer with its identity,
    problems, deprecations and findings; its candidates only when asked for
    (a fleet has too many)."""

    identity: IdentityView = attrs.field(metadata=FLATTEN)
    outcome: OutcomeView = attrs.field(metadata=FLATTEN)
    problems: tuple[str, ...]
    deprecations: tuple[DeprecationView, ...]
    findings: tuple[FindingView, ...]
    known: tuple[FindingView, ...]
    suppressed: tuple[SuppressedView, ...]

    @classmethod
    def of(cls, audited: Audited, *, candidates: bool = False) -> AuditItemView:
        return cls(
            identity=IdentityView.of(audited.isvc),
            outcome=OutcomeView.of(audited.outcome, candidates=candidates),
            problems=audited.problems,
            deprecations=tuple(DeprecationView.of(d) for d in audited.deprecations),
            findings=tuple(FindingView.of(f) for f in audited.findings),
            known=tuple(FindingView.of(f) for f in audited.known),
            suppressed=tuple(SuppressedView.of(s) for s in audited.suppressed),
        )


@frozen
class AuditSummaryView:
    """The counts at the end of an audit: InferenceServices by problem (a key
    each), result, component mode and most severe finding; every finding by
    severity."""

    version: str
    isvcs: int
    ok: int
    # Nothing found but what waits for OME's model agent.
    pending: int
    problems: dict[str, int] = attrs.field(metadata=FLATTEN)
    deprecated: int
    results: dict[str, int]
    modes: dict[str, dict[str, int]]
    severity: dict[str, int]
    findings: dict[str, int]
    # The findings waiting for OME's model agent, counted apart from the severities.
    pending_findings: int
    known: dict[str, int]
    suppressed: dict[str, int]
    # The baseline's entries no finding met (None: no baseline).
    fixed: int | None

    @classmethod
    def of(cls, summary: AuditSummary) -> AuditSummaryView:
        return cls(
            version=summary.policy.release,
            isvcs=summary.isvcs,
            ok=summary.ok,
            pending=summary.pending,
            problems=dict(summary.problems),
            deprecated=summary.deprecated,
            results=dict(sorted(summary.results.items())),
            modes={c: dict(sorted(m.items())) for c, m in summary.modes.items() if m},
            severity=dict(summary.severity),
            findings=dict(summary.findings),
            pending_findings=summary.pending_findings,
            known=dict(summary.known),
            suppressed=dict(summary.suppressed),
            fixed=summary.fixed,
        )


@frozen
class AuditTrailerView:
    """What follows an audit's `items`: made once every item is."""

    manifest_findings: tuple[FindingView, ...]
    manifest_known: tuple[FindingView, ...]
    manifest_suppressed: tuple[SuppressedView, ...]
    unused_suppressions: tuple[IgnoreView, ...]
    baseline: BaselineView | None
    summary: AuditSummaryView
    rules: RulesView

    @classmethod
    def of(
        cls,
        policy: Policy,
        summary: AuditSummary,
        unused: list[Ignore],
        baseline: BaselineView | None,
    ) -> AuditTrailerView:
        return cls(
            manifest_findings=tuple(FindingView.of(f) for f in summary.manifest_findings),
            manifest_known=tuple(FindingView.of(f) for f in summary.manifest_known),
            manifest_suppressed=tuple(SuppressedView.of(s) for s in summary.manifest_suppressed),
            unused_suppressions=tuple(IgnoreView.of(i) for i in unused),
            baseline=baseline,
            summary=AuditSummaryView.of(summary),
            rules=RulesView.of(policy),
        )


@frozen
class AuditView:
    """What `modetable audit -o json` prints (docs/json.md), whole."""

    items: tuple[AuditItemView, ...]
    trailer: AuditTrailerView = attrs.field(metadata=FLATTEN)
