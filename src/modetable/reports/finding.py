"""A finding as a value: how bad it is, its id, the message, where it is written
and the object to fix. The audit and `rules check` make them; every CI format
writes them. Severities are the rules' words (`rules.words.Severity`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from modetable.errors import Location
from modetable.inputs.manifests import Manifest
from modetable.rules.words import Severity
from modetable.settled import frozen

__all__ = [
    "SEVERITIES",
    "Finding",
    "ObjectRef",
    "Related",
    "at_least",
    "fingerprint",
    "object_text",
    "worst",
]

# The severities' words as text (what the JSON and the API show), most severe first.
SEVERITIES: tuple[str, ...] = tuple(word.value for word in Severity)


@frozen
class ObjectRef:
    """The object a finding asks to fix; all None when its kind is not known."""

    kind: str | None
    namespace: str | None
    name: str | None

    @classmethod
    def of(cls, manifest: Manifest) -> ObjectRef:
        return cls(manifest.kind, manifest.namespace, manifest.name)


@frozen
class Related:
    """Another place a finding involves (SARIF's relatedLocations): the object
    that causes it, written elsewhere, while the finding stands at the line
    of the InferenceService to change. `label` says what is there."""

    location: Location
    label: str


@frozen
class Finding:
    severity: str  # a Severity word, as text
    id: str
    message: str
    location: Location
    object: ObjectRef
    hint: str | None = None
    related: tuple[Related, ...] = ()
    # A check not decided until OME's model agent fills a model in: counted
    # apart from the severities (a SARIF note, a GitHub notice, a skipped
    # JUnit case), never failing --fail-on.
    pending: bool = False

    @property
    def see_also(self) -> str:
        """The related places as people read them, `see KIND NAME at
        FILE:LINE:COL` (each), or "" when there are none."""
        if not self.related:
            return ""
        return "see " + ", ".join(f"{r.label} at {r.location}" for r in self.related)


def worst(findings: Iterable[Finding]) -> str | None:
    """The most severe severity among `findings` (the pending left out, which
    are counted apart), or None when there are none."""
    found = {f.severity for f in findings if not f.pending}
    return next((s for s in SEVERITIES if s in found), None)


def at_least(severity: str, threshold: str) -> bool:
    """Whether `severity` is `threshold` or more severe."""
    return SEVERITIES.index(severity) <= SEVERITIES.index(threshold)


# A place quoted in a message (`first at FILE:LINE:COL`): its line and column
# move with every edit above it, so a fingerprint leaves them out.
_PLACE = re.compile(r"(?<=\S):\d+(?::\d+)?(?=[\s);,]|$)")


def object_text(obj: ObjectRef) -> str:
    """The object to fix as a baseline names it (`KIND NAMESPACE/NAME`), or ""."""
    if obj.kind is None or obj.name is None:
        return ""
    return f"{obj.kind} {obj.namespace}/{obj.name}" if obj.namespace else f"{obj.kind} {obj.name}"


def fingerprint(finding: Finding, subject: str) -> str:
    """What identifies a finding across runs: its id, the InferenceService it is
    about (`subject`, "" for none), the object to fix and its message without
    the places it quotes (never its own line: lines move when a file is edited
    above them). The baseline's, and SARIF's partialFingerprints."""
    message = _PLACE.sub("", finding.message)
    text = "\0".join((finding.id, subject, object_text(finding.object), message))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]
