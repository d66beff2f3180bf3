"""Names typed by what they name, and path templates: the types every section's
fields use (`rules/kinds.py` gives the markers their meaning).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from modetable.rules.kinds import Defines, Ref, Template
from modetable.rules.words import Scope

__all__ = [
    "PATH_PARAMS",
    "SCOPE_WORDS",
    "ComponentName",
    "KindName",
    "MessageKey",
    "ModeName",
    "OutcomeRef",
    "PathTemplate",
    "SourceId",
    "VersionName",
    "VersionRef",
]

# Names, typed by what they name (rules/kinds.py): validation checks that each
# reference names something defined, so a new field gets checked by its type.
# Every `since` and `until` names a listed version (checked by convention).
VersionName = Annotated[str, Defines("version")]
VersionRef = Annotated[str, Ref("version")]  # a listed version, beyond since/until
ModeName = Annotated[str, Ref("mode")]
ComponentName = Annotated[str, Ref("component")]
SourceId = Annotated[str, Ref("source")]
KindName = Annotated[str, Ref("kind")]
MessageKey = Annotated[str, Ref("message")]
OutcomeRef = Annotated[str, Ref("selection outcome")]
# The placeholders of a path, filled per component (Policy.placeholder_values).
PATH_PARAMS = ("component", "isvc_field", "runtime_field", "annotation_key")
PathTemplate = Annotated[str, Template(PATH_PARAMS)]
# Words the engine looks up by these keys (and the placeholders it fills): a
# key left out is an error at load, not a KeyError halfway through an answer.
SCOPE_WORDS: Mapping[str, tuple[str, ...]] = {word.value: () for word in Scope}
