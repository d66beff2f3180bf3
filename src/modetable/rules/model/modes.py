"""The `modes:`, `components:` and `mode_moves:` sections: the valid modes and
their statuses, the components compared, and what a move between modes breaks.
"""

from __future__ import annotations

from typing import Annotated

import attrs

from modetable.rules.kinds import Defines
from modetable.rules.model.names import MessageKey, ModeName
from modetable.rules.words import Compared, Status
from modetable.settled import frozen

__all__ = ["Component", "Mode", "ModeMove", "MoveBreak", "StatusChange"]


@frozen
class StatusChange:
    """A mode's status in some versions (`since` the version that deprecated it,
    say); no two of a mode's changes hold in one version."""

    status: Status
    replacement: ModeName | None = None
    since: str | None = None
    until: str | None = None


@frozen
class Mode:
    """A valid mode value. `status` (and `replacement`) hold in every version
    none of `statuses` holds in."""

    name: Annotated[str, Defines("mode", report_unused=True)]
    status: Status
    since: str | None = None
    until: str | None = None
    replacement: ModeName | None = None
    doc: str = ""
    statuses: tuple[StatusChange, ...] = ()


@frozen
class Component:
    name: Annotated[str, Defines("component")]
    isvc_field: str
    runtime_field: str
    compared: Compared
    runs_in: tuple[ModeName, ...]


@frozen
class MoveBreak:
    """Names (starting with `prefix`) that stop working after a mode move."""

    what: str
    prefix: str
    replacements: dict[str, str] = attrs.Factory(dict)


@frozen
class ModeMove:
    """A component's move from one mode to another: what breaks, what stays behind."""

    id: Annotated[str, Defines("mode move")]
    from_mode: ModeName
    to_mode: ModeName
    breaks: tuple[MoveBreak, ...] = ()
    note: MessageKey | None = None
