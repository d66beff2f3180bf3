"""The `docs:` section: the words `modetable docs` puts around the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import attrs

from modetable.rules.kinds import Ref, Template, Templates
from modetable.rules.model.names import ComponentName
from modetable.rules.words import (
    ComponentPlaceholder,
    ConditionWord,
    Counts,
    EffectWhen,
    MatchInput,
    SourceObject,
    Status,
)
from modetable.settled import frozen

__all__ = [
    "COUNTS_WORDS",
    "PLACEHOLDER_WORDS",
    "AdmissionTable",
    "DeclarationTable",
    "Docs",
    "DocsSide",
    "FindingIds",
    "MatchingTable",
    "RejectionRow",
    "RejectionTable",
    "Sentence",
]

COUNTS_WORDS: Mapping[str, tuple[str, ...]] = {word.value: () for word in Counts}
PLACEHOLDER_WORDS: Mapping[str, tuple[str, ...]] = {word.value: () for word in ComponentPlaceholder}


@frozen
class Sentence:
    """A sentence of the docs, in force in some versions ({range}: "since v1.3")."""

    text: Annotated[str, Template(("range", "Range"))]
    since: str | None = None
    until: str | None = None


@frozen
class RejectionRow:
    when: str
    shows: tuple[Sentence, ...]
    since: str | None = None
    until: str | None = None


@frozen
class RejectionTable:
    headers: tuple[str, ...]
    rows: tuple[RejectionRow, ...]


@frozen
class DocsSide:
    purpose: MatchInput
    label: str


@frozen
class DeclarationTable:
    headers: tuple[str, ...]
    sides: tuple[DocsSide, ...]
    counts: Annotated[dict[Counts, str], Templates(COUNTS_WORDS)]
    for_component: Annotated[str, Template(("component",))]
    ahead_of: Annotated[str, Template(("sources",))]


@frozen
class MatchingTable:
    component: ComponentName
    result: str


@frozen
class AdmissionTable:
    """How the admission checks' table reads: its headers; what follows a
    per-component check ({components}), a warning, a check not decided offline
    ({why}); how runtime selection's place in the order reads ({outcomes})."""

    headers: tuple[str, ...]
    each: Annotated[str, Template(("components",))]
    warning: str
    undecided: Annotated[str, Template(("why",))]
    selection: Annotated[str, Template(("outcomes",))]
    # A crd_schema check's row: what it reads, and the texts it gives.
    crd_schema_reads: str = ""
    crd_schema_texts: tuple[str, ...] = ()


@frozen
class FindingIds:
    """How the page of finding ids reads (region finding-ids); each entry's
    text is also SARIF's help for the id (where the page is hosted is the
    user's: `audit --docs-url`)."""

    severity: Annotated[str, Template(("severity", "range"))]
    help: Annotated[str, Template(("help",))]


@frozen
class Docs:
    """The words `modetable docs` puts around the rules in the generated regions."""

    none: str
    mode: Annotated[str, Template(("mode",))]
    status_notes: dict[Status, str]
    range_note: Annotated[str, Template(("range",))]
    placeholders: Annotated[dict[ComponentPlaceholder, str], Templates(PLACEHOLDER_WORDS)]
    objects: dict[SourceObject, str]
    conditions: dict[ConditionWord, str]
    matching_table: MatchingTable
    declaration_table: DeclarationTable
    rejection_table: RejectionTable
    # The admission checks' table (`modetable docs`, region admission-checks).
    admission_table: AdmissionTable | None = None
    # The page of finding ids (`modetable docs`, region finding-ids; SARIF's helpUri).
    finding_ids: FindingIds | None = None
    # Labels by id: selection checks, selection outcomes, an effect's `when` words.
    selection_checks: dict[Annotated[str, Ref("selection check")], str] = attrs.Factory(dict)
    selection_outcomes: dict[str, str] = attrs.Factory(dict)
    effect_conditions: dict[EffectWhen, str] = attrs.Factory(dict)
