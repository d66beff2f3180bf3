"""The `findings:` section: what `modetable audit` reports, and how bad each is."""

from __future__ import annotations

from typing import Annotated

import attrs

from modetable.rules.kinds import Ref
from modetable.rules.model.names import ComponentName, ModeName
from modetable.rules.words import ModeSourceFinding, SchemaError, Severity
from modetable.settled import frozen

__all__ = [
    "MODE_FINDING_PARAMS",
    "MODE_SOURCE_PARAMS",
    "FindingKind",
    "Findings",
    "ManifestFindings",
    "ModeFinding",
    "ModeSourceKind",
]

# What a mode's finding message is given (the `mode` group).
MODE_FINDING_PARAMS = ("component", "mode", "replacement")
# What a `mode_source` finding's message is given (audit/edges.py): the place
# and its value, the component, the version, what the source takes, a "did you
# mean", what decides instead, the source's note, the runtime and its parent,
# the mode that results and the place that asked for another.
MODE_SOURCE_PARAMS = (
    "path",
    "value",
    "component",
    "version",
    "accepts",
    "suggestion",
    "instead",
    "note",
    "runtime",
    "parent",
    "mode",
    "asked",
)


@frozen
class FindingKind:
    """How bad one kind of finding is, what it means (SARIF's rule text) and
    what to do about it (SARIF's help, the page of finding ids)."""

    severity: Severity
    description: str
    help: str | None = None


@frozen
class ModeFinding:
    """A component running in a mode whose status asks for attention."""

    severity: Severity
    description: str
    message: Annotated[str, Ref("message", params=MODE_FINDING_PARAMS)]
    help: str | None = None


@frozen
class ModeSourceKind:
    """A mode value a source passes over, or the runtime's overriding the
    one asked for (`mode_source`)."""

    severity: Severity
    description: str
    message: Annotated[str, Ref("message", params=MODE_SOURCE_PARAMS)]
    help: str | None = None


@frozen
class ManifestFindings:
    """Findings about the manifests themselves, not about one InferenceService."""

    invalid: FindingKind
    duplicate: FindingKind
    # An object OME's webhook denies on apply (runtime_admission).
    denied: FindingKind | None = None


@frozen
class Findings:
    """Each kind of finding by the rule behind it, grouped by the section the
    rule's id comes from; a finding's id is `GROUP/KEY`."""

    # What the API server refuses by OME's CRD schema (an admission check of
    # kind crd_schema), by the kind of problem; before any webhook.
    schema: dict[SchemaError, FindingKind] = attrs.field(factory=dict, kw_only=True)
    admission: dict[Annotated[str, Ref("admission check")], FindingKind]
    # An admission check left undecided (its `undecided`): the verdict is
    # "allowed" only as far as modetable can tell.
    not_checked: dict[Annotated[str, Ref("admission check")], FindingKind] = attrs.field(
        factory=dict, kw_only=True
    )
    outcome: dict[Annotated[str, Ref("selection outcome")], FindingKind]
    check: dict[Annotated[str, Ref("selection check")], FindingKind]
    run_failure: dict[Annotated[str, Ref("run failure")], FindingKind]
    component: dict[ComponentName, FindingKind]
    mode_move: dict[Annotated[str, Ref("mode move")], FindingKind]
    mode: dict[ModeName, ModeFinding]
    # A mode value passed over where it is written, or overridden (ids are
    # `ModeSourceFinding` words); rules without the group grade none.
    mode_source: dict[ModeSourceFinding, ModeSourceKind] = attrs.field(factory=dict, kw_only=True)
    manifest: ManifestFindings
    # What waits for OME's model agent (`selection.model_agent`), by its id:
    # counted apart from the severities in every output.
    pending: dict[Annotated[str, Ref("model agent")], FindingKind] = attrs.field(
        factory=dict, kw_only=True
    )

    def entries(self) -> list[tuple[str, FindingKind | ModeFinding]]:
        """(id, its entry) of every finding, `GROUP/KEY`, in file order."""
        listed: list[tuple[str, FindingKind | ModeFinding]] = []
        for field in attrs.fields(Findings):
            group = getattr(self, field.name)
            if attrs.has(type(group)):  # the manifest group: a field per finding
                group = {f.name: getattr(group, f.name) for f in attrs.fields(type(group))}
            listed.extend((f"{field.name}/{key}", kind) for key, kind in group.items() if kind)
        return listed
