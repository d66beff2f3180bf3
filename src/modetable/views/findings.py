"""A finding as the JSON contracts show it: how bad it is, its id, the
message, where it is written and the object to fix (an audit's, per item and
of the manifests)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from modetable.settled import frozen
from modetable.text.shown import escape

if TYPE_CHECKING:
    from modetable.reports.finding import Finding

__all__ = ["FindingObjectView", "FindingView", "LocationView", "RelatedView"]


@frozen
class LocationView:
    """Where a finding is written."""

    file: str
    line: int
    col: int


@frozen
class FindingObjectView:
    """The object a finding asks to fix; all None when its kind is not known."""

    kind: str | None
    namespace: str | None
    name: str | None


@frozen
class RelatedView:
    """Another object's place the finding involves (the model, the runtime),
    and what is there."""

    file: str
    line: int
    col: int
    label: str


@frozen
class FindingView:
    """One finding."""

    severity: str
    id: str
    message: str
    location: LocationView
    object: FindingObjectView
    hint: str | None
    related: tuple[RelatedView, ...]
    # Waits for OME's model agent: counted apart from the severities.
    pending: bool

    @classmethod
    def of(cls, finding: Finding) -> FindingView:
        where, obj = finding.location, finding.object
        return cls(
            severity=finding.severity,
            id=finding.id,
            message=finding.message,
            # A file name can hold a newline or bytes that are not UTF-8: shown escaped.
            location=LocationView(escape(where.file), where.line, where.col),
            object=FindingObjectView(obj.kind, obj.namespace, obj.name),
            hint=finding.hint,
            related=tuple(
                RelatedView(escape(r.location.file), r.location.line, r.location.col, r.label)
                for r in finding.related
            ),
            pending=finding.pending,
        )
