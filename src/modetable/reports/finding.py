"""A finding as a value: how bad it is, its id, the message, where it is written
and the object to fix. The audit and `rules check` make them; every CI format
writes them. Severities are the rules' words (`rules.words.Severity`)."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from modetable.errors import Location
from modetable.inputs.manifests import Manifest
from modetable.rules.words import Severity

__all__ = ["SEVERITIES", "Finding", "ObjectRef", "Related", "at_least", "worst"]

# The severities' words as text (what the JSON and the API show), most severe first.
SEVERITIES: tuple[str, ...] = tuple(word.value for word in Severity)


@attrs.frozen
class ObjectRef:
    """The object a finding asks to fix; all None when its kind is not known."""

    kind: str | None
    namespace: str | None
    name: str | None

    @classmethod
    def of(cls, manifest: Manifest) -> ObjectRef:
        return cls(manifest.kind, manifest.namespace, manifest.name)


@attrs.frozen
class Related:
    """Another place a finding involves (SARIF's relatedLocations): the object
    that causes it, written elsewhere, while the finding stands at the line
    of the InferenceService to change. `label` says what is there."""

    location: Location
    label: str


@attrs.frozen
class Finding:
    severity: str  # a Severity word, as text
    id: str
    message: str
    location: Location
    object: ObjectRef
    hint: str | None = None
    related: tuple[Related, ...] = ()

    @property
    def see_also(self) -> str:
        """The related places as people read them, `see KIND NAME at
        FILE:LINE:COL` (each), or "" when there are none."""
        if not self.related:
            return ""
        return "see " + ", ".join(f"{r.label} at {r.location}" for r in self.related)


def worst(findings: Iterable[Finding]) -> str | None:
    """The most severe severity among `findings`, or None when there are none."""
    found = {f.severity for f in findings}
    return next((s for s in SEVERITIES if s in found), None)


def at_least(severity: str, threshold: str) -> bool:
    """Whether `severity` is `threshold` or more severe."""
    return SEVERITIES.index(severity) <= SEVERITIES.index(threshold)
