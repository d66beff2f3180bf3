"""Product versions: quoted strings in the data, `packaging` versions in code.

A rules file lists its *rules lines* (`versions:`): each line's rules hold
from its version until the next line's, the newest through its minor series
(`v1.3` holds for every `v1.3.x`). Any OME release is placed on the line that
holds it (`place`); a pre-release counts as the release it leads to.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from packaging.version import InvalidVersion, Version

from modetable.errors import ErrorCode, ModetableError
from modetable.settled import frozen
from modetable.text.shown import quote

__all__ = [
    "Placement",
    "covered",
    "describe_range",
    "in_force",
    "parse_version",
    "place",
    "series",
    "shown",
]


@lru_cache(maxsize=256)
def parse_version(text: str) -> Version:
    """`v1.3` and `1.3` are the same version; raises ValueError when not a version."""
    try:
        return Version(text)
    except InvalidVersion:
        raise ValueError(f"not a version: {text!r}") from None


def in_force(since: str | None, until: str | None, version: str) -> bool:
    """Whether a rule gated by [since, until) applies in `version`."""
    current = parse_version(version)
    if since is not None and current < parse_version(since):
        return False
    return not (until is not None and current >= parse_version(until))


def describe_range(since: str | None, until: str | None) -> str:
    """`since v1.3`, `before v1.3`, `from v1.2.2 until v1.3`, or `always`."""
    if since and until:
        return f"from {since} until {until}"
    if since:
        return f"since {since}"
    if until:
        return f"before {until}"
    return "always"


@frozen
class Placement:
    """Where an OME release stands among the rules lines of a file."""

    asked: str  # the release as shown: `v1.3.1` (a `v` added when left out)
    line: str  # the listed version whose rules apply: `v1.3`
    warning: str | None = None  # set when the release is newer than the rules describe


def shown(release: str) -> str:
    """A release as modetable shows it: `1.3.2` → `v1.3.2`; `v1.3.0-rc.1` as written."""
    text = release.strip()
    return f"v{text[1:]}" if text[:1] in ("v", "V") else f"v{text}"


def _named(asked: str) -> str:
    """A release as a message names it: as it is, or quoted, shortened and
    escaped when it would not fit a line (`v1.` and 4,000 digits is a version)."""
    return asked if len(asked) <= _NAMED_LIMIT and asked.isprintable() else quote(asked)


_NAMED_LIMIT = 40  # as quote() shortens


def _release(version: Version) -> tuple[int, ...]:
    """The release a version leads to, padded: a pre-release counts as its release."""
    parts = version.release
    return parts + (0,) * (3 - len(parts)) if len(parts) < 3 else parts


def series(line: str) -> str:
    """The minor series a line opens: `v1.3` → `v1.3.x`, `v1.2.2` → `v1.2.x`."""
    major, minor = _release(parse_version(line))[:2]
    return f"v{major}.{minor}.x"


def covered(lines: Sequence[str]) -> str:
    """The releases a file's lines describe: `v1.2.2 to v1.3.x`."""
    ordered = sorted(lines, key=parse_version)
    return f"{ordered[0]} to {series(ordered[-1])}"


def place(release: str, lines: Sequence[str]) -> Placement:
    """The rules line that holds `release`; a one-line error when it is older than
    every line or not a version, a warning when newer than the newest line's series."""
    asked = shown(release)
    named = _named(asked)
    try:
        wanted = _release(parse_version(release.strip()))
    except ValueError:
        raise ModetableError(
            f"{quote(release)} is not an OME version (write it like v1.3.1)",
            code=ErrorCode.BAD_VERSION,
        ) from None
    ordered = sorted(lines, key=parse_version)
    holding = [line for line in ordered if _release(parse_version(line)) <= wanted]
    if not holding:
        raise ModetableError(
            f"OME {named} is older than these rules describe: they cover {covered(lines)}",
            code=ErrorCode.UNKNOWN_VERSION,
        )
    line = holding[-1]
    newest = ordered[-1]
    if line == newest and wanted[:2] > _release(parse_version(newest))[:2]:
        return Placement(
            asked,
            line,
            f"OME {named} is newer than these rules describe: they were written for "
            f"{newest} ({series(newest)}); using the {newest} rules",
        )
    return Placement(asked, line)
