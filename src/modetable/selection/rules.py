"""The `selection:` section of the rules in force."""

from __future__ import annotations

from modetable.errors import ModetableError
from modetable.rules.model.selection import Selection
from modetable.rules.policy import Policy

__all__ = ["selection_rules"]


def selection_rules(policy: Policy) -> Selection:
    """The policy's selection rules; a rules file without them cannot select."""
    found = policy.rules.selection
    if found is None:
        raise ModetableError(f"{policy.file}: the rules have no selection section")
    return found
