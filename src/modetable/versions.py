"""Product versions: quoted strings in the data, `packaging` versions in code."""

from __future__ import annotations

from functools import lru_cache

from packaging.version import InvalidVersion, Version


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
