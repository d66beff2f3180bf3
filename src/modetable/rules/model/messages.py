"""The `messages:` section: every text modetable shows, verbatim."""

from __future__ import annotations

from typing import Annotated

from modetable.rules.kinds import Template
from modetable.rules.words import Origin
from modetable.settled import frozen

__all__ = ["Message"]


@frozen
class Message:
    """A message, verbatim; `params` lists what modetable passes it, and every
    `{placeholder}` of the text must be one of them."""

    origin: Origin
    text: Annotated[str, Template(params_field="params")]
    params: tuple[str, ...] = ()
    # The params printed as Go's %q prints a string inside the quotes the text
    # already has: `"` and `\` escaped, control characters as escapes.
    quoted: tuple[str, ...] = ()
    # True when OME's docs do not show the text and modetable reads it from its
    # pattern (decided; see the rules file's comments).
    inferred: bool = False
