"""The shape of a rules file, as frozen attrs classes, a module per section of
the file (`manifests`, `modes`, `sources`, `matching`, `admission`,
`runtimes`, `selection`, `messages`, `docs`, `findings`, `suppression`; `names` for the
types they share) and `RuleFile`, the whole file, here.

These classes are the single description of the format: cattrs structures
the YAML into them, and the JSON Schema is generated from them. Their closed
word sets are rules/words.py's. Anything version-gated carries `since`
(inclusive) and `until` (exclusive).
"""

from __future__ import annotations

from typing import Annotated, Literal

import attrs

from modetable.rules.kinds import Defines, Templates
from modetable.rules.model.admission import STAGE_PARAMS, AdmissionRule
from modetable.rules.model.docs import Docs
from modetable.rules.model.findings import Findings
from modetable.rules.model.manifests import Manifests, ModelAgent
from modetable.rules.model.matching import Matching
from modetable.rules.model.messages import Message
from modetable.rules.model.modes import Component, Mode, ModeMove
from modetable.rules.model.names import VersionName, VersionRef
from modetable.rules.model.runtimes import Inheritance, RunFailure, RuntimeAdmission, RuntimeRef
from modetable.rules.model.selection import Selection
from modetable.rules.model.sources import EXPLANATION_PARAMS, RunningMerge, Sources
from modetable.rules.model.suppression import Suppression
from modetable.settled import frozen

__all__ = ["RuleFile"]


@frozen
class RuleFile:
    # The format this modetable reads; a file of another is refused, not guessed at
    # (docs/api.md, Versioning).
    format: Literal[1]
    product: str
    # The rules lines: each holds from its version until the next one's, the
    # newest through its minor series (v1.3: every v1.3.x).
    versions: tuple[VersionName, ...]
    # The newest released line, answered for when no version is asked (a line
    # listed ahead of a release does not move it); default: the newest line.
    default_version: VersionRef | None = attrs.field(default=None, kw_only=True)
    annotation_key: str
    manifests: Manifests
    modes: tuple[Mode, ...]
    components: tuple[Component, ...]
    sources: Sources
    running_merge: RunningMerge
    matching: Matching
    admission: tuple[AdmissionRule, ...]
    admission_stages: Annotated[dict[str, str], Templates(STAGE_PARAMS)]
    run_failures: tuple[RunFailure, ...]
    runtime_ref: RuntimeRef
    inheritance: Inheritance
    messages: dict[Annotated[str, Defines("message", report_unused=True)], Message]
    explanations: Annotated[dict[str, str], Templates(EXPLANATION_PARAMS)]
    mode_moves: tuple[ModeMove, ...] = ()
    selection: Selection | None = None
    runtime_admission: RuntimeAdmission | None = None
    findings: Findings | None = None
    # modetable's own annotation, an exception to the audit's findings that
    # travels with the object.
    suppression: Suppression | None = None
    docs: Docs | None = None
    model_agent: ModelAgent | None = None
