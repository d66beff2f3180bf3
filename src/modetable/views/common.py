"""The views several answers share: the rules read, a runtime, an object to
fix, a component's mode and the sources read for it, the admission verdict,
a runtime assessed as a candidate (docs/json.md, "Shared shapes")."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, TypeVar, overload

import attrs

from modetable.settled import frozen
from modetable.text.shown import escape

if TYPE_CHECKING:
    from modetable.admission import Admission
    from modetable.engine.modes import Reading, Resolution
    from modetable.inputs.manifests import Manifest
    from modetable.rules.policy import Policy, RuleSet
    from modetable.selection.checks import Candidate

__all__ = [
    "FLATTEN",
    "OMIT_IF_NONE",
    "AdmissionView",
    "CandidateView",
    "NotCheckedView",
    "ObjectView",
    "ReadingView",
    "ResolutionView",
    "RulesView",
    "RuntimeView",
    "key",
    "same_named",
]

_View = TypeVar("_View")

# A field's metadata for the converter: the key is left out of the JSON when
# the value is None (a document that shows it only when there is one).
OMIT_IF_NONE = {"omit_if_none": True}
# A field whose document's keys stand in its place, in order, in its owner's.
FLATTEN = {"flatten": True}


def key(name: str) -> dict[str, str]:
    """A field's metadata: its key in the JSON is `name` (a Python word: `from`)."""
    return {"key": name}


def same_named(view: type[_View], source: object, **given: Any) -> _View:
    """A `view` whose fields are `given`, or else `source`'s attributes of the
    same names (most of a view is the engine's value, field for field)."""
    return view(
        **{
            name: given[name] if name in given else getattr(source, name)
            for name in _field_names(view)
        }
    )


# A view's fields, asked for once per class: an audit makes several views per item.
@functools.cache
def _field_names(view: type) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(view))


@frozen
class RulesView:
    """`"rules"` of every JSON output: the file read and the rules line used
    (None for a whole file)."""

    path: str
    version: str | None

    @classmethod
    def of(cls, policy: Policy | RuleSet) -> RulesView:
        from modetable.rules.policy import Policy

        line = policy.version if isinstance(policy, Policy) else None
        return cls(path=escape(policy.file), version=line)


@frozen
class RuntimeView:
    """A runtime as the JSON contracts name it."""

    name: str
    kind: str
    # `manifest`, `live` or `both` (`--live`).
    read_from: str

    @classmethod
    def of(cls, runtime: Manifest | None) -> RuntimeView | None:
        if runtime is None:
            return None
        return same_named(cls, runtime, read_from=str(runtime.read_from))


@frozen
class ObjectView:
    """An object (to fix, or a model used): its kind, namespace (None for a
    cluster-scoped one), name, where it is written and where it was read from."""

    kind: str
    namespace: str | None
    name: str
    at: str
    read_from: str

    @overload
    @classmethod
    def of(cls, manifest: Manifest) -> ObjectView: ...
    @overload
    @classmethod
    def of(cls, manifest: None) -> None: ...
    @overload
    @classmethod
    def of(cls, manifest: Manifest | None) -> ObjectView | None: ...
    @classmethod
    def of(cls, manifest: Manifest | None) -> ObjectView | None:
        """The object's view; None for no object (a `Manifest` always has one)."""
        if manifest is None:
            return None
        return same_named(
            cls, manifest, at=str(manifest.location), read_from=str(manifest.read_from)
        )

    @property
    def ref(self) -> str:
        """`NAMESPACE/NAME`, or `NAME` for a cluster-scoped object."""
        return f"{self.namespace}/{self.name}" if self.namespace else self.name


@frozen
class ReadingView:
    """A source read for a mode, and why it was used or passed over."""

    source: str
    path: str
    value: Any
    verdict: str
    why: str
    at: str | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, reading: Reading) -> ReadingView:
        return cls(
            source=reading.source_label,
            path=reading.path,
            value=reading.value,
            verdict=str(reading.verdict),  # the word itself: JSON holds text
            why=reading.why,
            at=str(reading.location) if reading.location else None,
        )


@frozen
class ResolutionView:
    """A component's mode and the source that gave it; with the sources passed
    over when the answer traces them."""

    mode: str | None
    source: str | None
    passed_over: tuple[ReadingView, ...] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, resolution: Resolution, *, trace: bool = True) -> ResolutionView:
        passed = tuple(ReadingView.of(r) for r in resolution.passed_over) if trace else None
        return cls(mode=resolution.mode, source=resolution.source_label, passed_over=passed)


@frozen
class NotCheckedView:
    """A check in force that could not be decided offline, and why."""

    check: str
    why: str


@frozen
class AdmissionView:
    """The `admission` object: the verdict as `kubectl apply` reports it."""

    allowed: bool
    message: str | None
    warnings: tuple[str, ...]
    denied_by: str | None
    warning_checks: tuple[str, ...]
    checked: tuple[str, ...]
    not_checked: tuple[NotCheckedView, ...]

    @classmethod
    def of(cls, admission: Admission) -> AdmissionView:
        checks = tuple(NotCheckedView(n.check, n.why) for n in admission.not_checked)
        return same_named(cls, admission, not_checked=checks)


@frozen
class CandidateView:
    """A runtime assessed for an InferenceService or a model: whether it is
    compatible, the first check it fails and why, its score."""

    name: str
    kind: str
    scope: str
    compatible: bool
    reason: str | None
    check: str | None
    priority: int | None
    weight: int | None
    score: int | None

    @classmethod
    def of(cls, candidate: Candidate) -> CandidateView:
        return same_named(cls, candidate, scope=candidate.scope_label, check=candidate.failed_check)
