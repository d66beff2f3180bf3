"""The audit's findings sorted by what the user has said of them: suppressed
(an `--ignore`, an ignore of the config file, an object's annotation), known
(in the baseline), or new, which alone count for `--fail-on`. Nothing is
dropped: a suppressed finding keeps the exception that suppressed it, and an
exception that suppresses nothing, or a baseline entry no finding meets, is
said too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase
from typing import Any

from modetable.errors import Location, ModetableError
from modetable.inputs.baseline import BaselineEntry
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing.yamlio import where
from modetable.reports import Waiver
from modetable.reports.finding import Finding, ObjectRef, fingerprint, object_text
from modetable.rules.policy import Policy
from modetable.settled import frozen

__all__ = [
    "BY_ANNOTATION",
    "BY_CONFIG",
    "BY_OPTION",
    "Ignore",
    "Sorted",
    "Suppressed",
    "Triage",
    "baseline_entry",
]

# Who suppressed a finding: `--ignore`, the config file, the object's annotation.
BY_OPTION = "option"
BY_CONFIG = "config"
BY_ANNOTATION = "annotation"


@frozen
class Ignore:
    """One exception: the finding ids it covers (a glob, `*` any characters),
    optionally only for objects whose `NAMESPACE/NAME` (or a cluster-scoped
    object's `NAME`) and kind match globs, or only for one object (`holder`:
    an annotation's); why, and where it is written (None for `--ignore`)."""

    id: str
    by: str
    reason: str | None = None
    at: Location | None = None
    object: str | None = None
    kind: str | None = None
    holder: ObjectRef | None = None

    def matches(self, finding: Finding, subject: ObjectRef | None) -> bool:
        if not fnmatchcase(finding.id, self.id):
            return False
        obj = finding.object
        if self.holder is not None:
            return self.holder in (obj, subject)
        if self.kind is not None and not fnmatchcase(obj.kind or "", self.kind):
            return False
        if self.object is not None:
            ref = f"{obj.namespace}/{obj.name}" if obj.namespace else (obj.name or "")
            return fnmatchcase(ref, self.object)
        return True

    @property
    def waiver(self) -> Waiver:
        """What the outputs say of a finding it suppressed."""
        return Waiver(self.id, self.by, self.reason, self.at)

    def __str__(self) -> str:
        """How a warning names it: `--ignore ID`, or `FILE:LINE:COL: ignore ID`."""
        if self.at is None:
            return f"--ignore {self.id}"
        scope = "".join(
            f" {name} {value}"
            for name, value in (("object", self.object), ("kind", self.kind))
            if value is not None
        )
        return f"{self.at}: ignore {self.id}{scope}"


@frozen
class Suppressed:
    """A finding, and the exception that suppressed it."""

    finding: Finding
    ignore: Ignore


@frozen
class Sorted:
    """One subject's findings, sorted: those that count, those the baseline
    knows, those suppressed."""

    new: tuple[Finding, ...]
    known: tuple[Finding, ...]
    suppressed: tuple[Suppressed, ...]


def baseline_entry(finding: Finding, subject: str) -> BaselineEntry:
    return BaselineEntry(
        fingerprint=fingerprint(finding, subject),
        id=finding.id,
        severity=finding.severity,
        subject=subject,
        object=object_text(finding.object),
        message=finding.message,
    )


class Triage:
    """The exceptions and the baseline of one audit, applied subject by
    subject; what each exception suppressed, and what the baseline still
    holds, is counted as it goes."""

    def __init__(
        self,
        policy: Policy,
        cluster: Cluster,
        ignores: Sequence[Ignore] = (),
        baseline: Sequence[BaselineEntry] | None = None,
    ) -> None:
        self.cluster = cluster
        self.ignores = tuple(ignores)
        self.baseline = baseline
        self._left = Counter(e.fingerprint for e in baseline) if baseline is not None else None
        self._used: set[Ignore] = set()
        self.annotations: dict[ObjectRef, tuple[Ignore, ...]] = _annotated(policy, cluster)

    def sort(self, findings: Iterable[Finding], subject: Manifest | None) -> Sorted:
        """`findings` of `subject` (an InferenceService; None for the manifests)."""
        new: list[Finding] = []
        known: list[Finding] = []
        suppressed: list[Suppressed] = []
        about = ObjectRef.of(subject) if subject is not None else None
        name = subject.ref if subject is not None else ""
        for finding in findings:
            ignore = self._ignore(finding, about)
            if ignore is not None:
                self._used.add(ignore)
                suppressed.append(Suppressed(finding, ignore))
                continue
            if self._left is not None:
                key = fingerprint(finding, name)
                if self._left[key] > 0:
                    self._left[key] -= 1
                    known.append(finding)
                    continue
            new.append(finding)
        return Sorted(tuple(new), tuple(known), tuple(suppressed))

    def _ignore(self, finding: Finding, subject: ObjectRef | None) -> Ignore | None:
        for ignore in self.ignores:
            if ignore.matches(finding, subject):
                return ignore
        for holder in (finding.object, subject):
            for ignore in self.annotations.get(holder, ()) if holder is not None else ():
                if ignore.matches(finding, subject):
                    return ignore
        return None

    def unused(self, covers: Any = None) -> list[Ignore]:
        """The exceptions that suppressed nothing (`covers(ObjectRef)`: whether an
        annotated object is in the audit's scope; every one when None)."""
        found = [i for i in self.ignores if i not in self._used]
        for holder, ignores in self.annotations.items():
            if covers is None or covers(holder):
                found.extend(i for i in ignores if i not in self._used)
        return found

    def fixed(self) -> list[BaselineEntry]:
        """The baseline's entries no finding of this run met."""
        if self.baseline is None or self._left is None:
            return []
        left = Counter(self._left)
        found = []
        for entry in self.baseline:
            if left[entry.fingerprint] > 0:
                left[entry.fingerprint] -= 1
                found.append(entry)
        return found


# --- the annotation ---------------------------------------------------------------


def _annotated(policy: Policy, cluster: Cluster) -> dict[ObjectRef, tuple[Ignore, ...]]:
    """The exceptions each object's annotation (the rules' `suppression`) holds."""
    rules = policy.rules.suppression
    if rules is None:
        return {}
    found: dict[ObjectRef, tuple[Ignore, ...]] = {}
    for manifest in (*cluster.isvcs, *cluster.runtimes, *cluster.models):
        annotations = manifest.annotations
        if rules.annotation in annotations:
            found[ObjectRef.of(manifest)] = _read_annotation(policy, manifest, annotations)
    return found


def _read_annotation(
    policy: Policy, manifest: Manifest, annotations: dict[str, Any]
) -> tuple[Ignore, ...]:
    rules = policy.rules.suppression
    assert rules is not None
    key = rules.annotation
    value = annotations[key]
    at = where(annotations, key, manifest.location)
    form = (
        f"each line {{finding id}}[{rules.ids_separator} {{finding id}}...]"
        f"{rules.reason_separator} {{reason}}"
    )
    if not isinstance(value, str):
        raise ModetableError(f"annotation {key} must be a string: {form}", at)
    found = []
    for line in value.splitlines():
        if not line.strip():
            continue
        ids, separator, reason = line.partition(rules.reason_separator)
        names = [name.strip() for name in ids.split(rules.ids_separator)]
        if not separator or not reason.strip() or not all(names):
            raise ModetableError(
                f"annotation {key}: {line.strip()!r} is not {form} (every exception says why)",
                at,
            )
        holder = ObjectRef.of(manifest)
        found.extend(
            Ignore(name, BY_ANNOTATION, reason.strip(), at, holder=holder) for name in names
        )
    return tuple(found)
