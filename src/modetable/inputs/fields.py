"""Reading the fields selection needs: typed, located, and a clear error for a
value of the wrong type (the API server would have refused it)."""

from __future__ import annotations

from typing import Any

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.parsing import paths
from modetable.parsing.yamlio import describe

__all__ = ["is_set", "read"]

# What a field must hold, and how an error names it.
_KINDS: dict[type, str] = {str: "a string", bool: "true or false", int: "a whole number"}


def read(
    node: Any, path: str | paths.Segments, expect: type, fallback: Location, prefix: str = ""
) -> Any:
    """The value at `path` (None when unset), which must be of type `expect`.

    `expect` is str, bool, int, dict or list; a bool is never an int. `prefix`
    names `node` in an error (`spec.supportedModelFormats[0].`).
    """
    segments = paths.split(path) if isinstance(path, str) else path
    value = paths.lookup(node, segments)
    if value is paths.MISSING or value is None:
        return None
    wrong_int = expect is int and isinstance(value, bool)
    if not isinstance(value, expect) or wrong_int:
        kind = _KINDS.get(expect) or ("a mapping" if expect is dict else "a list")
        raise ModetableError(
            f"{prefix}{paths.render(segments)} must be {kind}, got {describe(value)}",
            paths.value_location(node, segments, fallback) or fallback,
            code=ErrorCode.WRONG_TYPE,
        )
    return value


def is_set(node: Any, path: str | paths.Segments) -> bool:
    """Whether `path` holds a value (an empty mapping counts)."""
    segments = paths.split(path) if isinstance(path, str) else path
    return paths.lookup(node, segments) not in (paths.MISSING, None)
