"""The `sources:`, `running_merge:` and `explanations:` sections: where a mode
comes from, per purpose, and what the engine passes each explanation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import attrs

from modetable.rules.kinds import Defines, Ref, Template
from modetable.rules.model.names import ComponentName, ModeName, PathTemplate, SourceId
from modetable.rules.words import Counts, Purpose, SourceEffect, SourceObject
from modetable.settled import frozen

__all__ = ["EXPLANATION_PARAMS", "RunningMerge", "Source", "SourceDocs", "SourceExample", "Sources"]

# What the engine passes each explanation (engine/modes.py): the contract their
# placeholders are checked against. A message a rule names gets what that rule's field says
# (Ref.params); one the code names itself, what the call passes
# (authoring/callsites.py, checked by `modetable rules check`).
EXPLANATION_PARAMS: Mapping[str, tuple[str, ...]] = {
    "used": ("mode", "value"),
    "absent": (),
    "shadowed": ("value", "source"),
    "not_in_version": ("value", "range"),
    "does_not_count": ("value",),
    "when_named": ("value",),
    "not_valid": ("value", "version"),
    "not_accepted": ("value", "accepts"),
    "chain_broken": (),
}


@frozen
class SourceDocs:
    """How the docs' "where each side declares a mode" table shows a source.

    `where` names the place ({placeholders} as in paths; default: the path);
    `per_component` gives each compared component its own row; `counts`
    replaces the derived "counts" cell ({accepts}: the modes it takes);
    `range_note: false` leaves out the "(since ...)" note.
    """

    where: PathTemplate | None = None
    per_component: bool = False
    counts: Annotated[str, Template(("accepts",))] | None = None
    range_note: bool = True


@frozen
class Source:
    """One place a mode can come from.

    Exactly one of `path` (a value read there), `present` (a fixed `gives`
    when any of these paths holds a value) or neither (a constant `gives`).
    """

    id: Annotated[str, Defines("source")]
    object: SourceObject | None = None
    path: PathTemplate | None = None
    present: tuple[PathTemplate, ...] = ()
    gives: ModeName | None = None
    name: str | None = None
    counts: Counts = Counts.ALWAYS
    accepts: tuple[ModeName, ...] | None = None
    components: tuple[ComponentName, ...] | None = None
    effect: SourceEffect | None = None
    since: str | None = None
    until: str | None = None
    docs: SourceDocs | None = None
    # What a finding about a mode written here adds (a message, `findings.mode_source`).
    note: Annotated[str, Ref("message", params=())] | None = None
    # Where a mode written here is, in an operator's words ("the runtime's
    # spec.engineConfig annotation ome.io/deploymentMode"): what text, HTML
    # and Markdown say after "from" (JSON keeps the id); default: the path.
    words: PathTemplate | None = None

    @property
    def label(self) -> str:
        """The name `kubectl ome runtime effective` prints, else the id."""
        return self.name or self.id


@frozen
class SourceExample:
    """Values in the places a purpose's sources read, as a test: the mode that
    results for `component`, and the source that must decide it (`none`: no
    source does). `values` maps a source's id to the value its place holds
    (`set` for a source that checks `present` paths). Runs in each listed
    version in force.
    """

    purpose: Purpose
    component: ComponentName
    values: dict[SourceId, str]
    mode: Annotated[str, Ref("mode", also=("none",))]
    source: Annotated[str, Ref("source", also=("none",))]
    named: bool = False
    since: str | None = None
    until: str | None = None


@frozen
class Sources:
    requested: tuple[Source, ...]
    declared: tuple[Source, ...]
    running: tuple[Source, ...]
    examples: tuple[SourceExample, ...] = ()


@frozen
class RunningMerge:
    source: PathTemplate = attrs.field(metadata={"yaml_key": "from"})
    into: PathTemplate
