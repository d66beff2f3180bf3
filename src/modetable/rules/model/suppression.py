"""The `suppression:` section: how an object carries an exception to the
audit's findings with it (modetable's own annotation, as kube-linter's
`ignore-check.kube-linter.io/<check>`)."""

from __future__ import annotations

from modetable.settled import frozen

__all__ = ["Suppression"]


@frozen
class Suppression:
    """The annotation's key, and how its value reads: a line per exception,
    finding ids (globs) separated by `ids_separator`, then `reason_separator`
    and the reason, which is required."""

    annotation: str
    ids_separator: str
    reason_separator: str
