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

import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

import attrs

from modetable.rules.kinds import Defines, Templates
from modetable.rules.model.admission import STAGE_PARAMS, AdmissionRule
from modetable.rules.model.manifests import Manifests, ModelAgent
from modetable.rules.model.matching import Matching
from modetable.rules.model.messages import Message
from modetable.rules.model.modes import Component, Mode, ModeMove
from modetable.rules.model.names import VersionName, VersionRef
from modetable.rules.model.runtimes import Inheritance, RunFailure, RuntimeAdmission, RuntimeRef
from modetable.rules.model.selection import Selection
from modetable.rules.model.sources import EXPLANATION_PARAMS, RunningMerge, Sources
from modetable.settled import frozen

if TYPE_CHECKING:
    from modetable.rules.model.docs import Docs
    from modetable.rules.model.findings import Findings
    from modetable.rules.model.suppression import Suppression

__all__ = ["LATER", "LATER_SECTIONS", "RuleFile", "defer"]

# The sections no command about one InferenceService reads, by the module of
# their classes: imported when their types are first resolved
# (`kinds.field_types`) or a section of them is first read from the rules
# cache, so that a cold `select` never makes their classes (docs/performance.md).
LATER = {
    "Docs": "modetable.rules.model.docs",
    "Findings": "modetable.rules.model.findings",
    "Suppression": "modetable.rules.model.suppression",
}
# The fields of RuleFile that hold them.
LATER_SECTIONS = ("docs", "findings", "suppression")


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

    def __getattr__(self, name: str) -> Any:
        """A section the rules cache left to be read when first asked for
        (`defer`): read once, whichever thread asks first, then held."""
        with _deferring:
            try:
                return object.__getattribute__(self, name)  # read meanwhile
            except AttributeError:
                pass
            pending = _deferred.get(id(self), {})
            if name not in pending:
                raise AttributeError(name)
            value = pending[name]()
            object.__setattr__(self, name, value)
            del pending[name]
            return value


# The sections of each RuleFile still to be read (by the object's id, each
# entry gone with its object), and the lock under which one is read.
_deferred: dict[int, dict[str, Callable[[], Any]]] = {}
_deferring = threading.RLock()


def defer(rules: RuleFile, sections: dict[str, Callable[[], Any]]) -> RuleFile:
    """`rules` whose `sections` (field names) are each read by its function
    when first asked for; `rules` must hold them as None until then."""
    with _deferring:
        for name in sections:
            object.__delattr__(rules, name)
        _deferred[id(rules)] = dict(sections)
        weakref.finalize(rules, _deferred.pop, id(rules), None)
    return rules
