"""The Python API's arguments, checked where they come in (docs/api.md lists
what each takes): a value of a wrong type is a `TypeError` that names the
argument and what it takes; a value of the right type that names nothing
modetable can read is a `ModetableError` with its code. No other exception
leaves the API for what a caller passes.
"""

from __future__ import annotations

import os
from typing import Any, TypeVar

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.text.shown import quote

__all__ = ["flag", "made_by", "name", "one_of", "path", "typed", "wrong_type"]

_T = TypeVar("_T")


def wrong_type(argument: str, expected: str, value: Any) -> TypeError:
    """`ARGUMENT must be EXPECTED, got TYPE`: what every wrong type says."""
    return TypeError(f"{argument} must be {expected}, got {type(value).__name__}")


def typed(argument: str, value: Any, kind: type[_T] | tuple[type, ...], expected: str) -> _T:
    """`value` when it is a `kind`, else the `TypeError`."""
    if not isinstance(value, kind):
        raise wrong_type(argument, expected, value)
    return value  # type: ignore[return-value]


def flag(argument: str, value: Any) -> bool:
    """True or False, and nothing that is only truthy (1, "yes", None)."""
    return typed(argument, value, bool, "True or False")


def _surrogate(text: str) -> str | None:
    """The first lone surrogate in `text` (`U+D800`), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"U+{ord(text[exc.start]):04X}"
    return None


def name(argument: str, value: Any) -> str | None:
    """A Kubernetes name, or a reference made of names (`NAMESPACE/NAME`);
    None when the argument may be left out: a str that is not empty and holds
    no space, control character or lone surrogate (no manifest holds one)."""
    if value is None:
        return None
    typed(argument, value, str, "a str or None")
    if not value:
        raise ModetableError(f"{argument} is empty")
    surrogate = _surrogate(value)
    if surrogate is not None:
        raise ModetableError(
            f"{argument} holds {surrogate}, which is not a character (a lone surrogate)"
        )
    if not all(c.isprintable() and not c.isspace() for c in value):
        raise ModetableError(
            f"{argument} {quote(value)} is not a Kubernetes name "
            "(it holds spaces or control characters)"
        )
    return value


def one_of(argument: str, value: Any, words: tuple[str, ...]) -> str | None:
    """One of `words`, or None."""
    if value is None:
        return None
    typed(argument, value, str, "a str or None")
    if value not in words:
        listed = ", ".join(words)
        raise ModetableError(
            f"{argument} must be one of {listed} (or None), got {quote(value)}",
            code=ErrorCode.NOT_ALLOWED,
        )
    return value


def path(argument: str, value: Any) -> str:
    """A file's path as a str: a str, or an `os.PathLike` whose path is a str
    (a pathlib.Path). bytes are a `TypeError`, as in pathlib; a path the system
    cannot name (empty, a NUL, a lone surrogate that is not a byte of a file
    name that is not UTF-8) a `ModetableError` as a file that cannot be read."""
    expected = "a str or os.PathLike[str] (a path)"
    if isinstance(value, os.PathLike):
        given = os.fspath(value)
        if not isinstance(given, str):
            raise TypeError(f"{argument} must be {expected}, got an os.PathLike of bytes")
    else:
        given = typed(argument, value, str, expected)
    if not given:
        raise ModetableError(f"{argument} is empty", code=ErrorCode.CANNOT_READ)
    if "\0" in given:
        raise ModetableError(
            "cannot read: a path cannot hold a NUL character",
            Location(given),
            code=ErrorCode.CANNOT_READ,
        )
    try:
        os.fsencode(given)
    except UnicodeEncodeError as exc:
        raise ModetableError(
            f"cannot read: the path holds U+{ord(given[exc.start]):04X}, which is not a "
            "character (a lone surrogate)",
            Location(given),
            code=ErrorCode.CANNOT_READ,
        ) from None
    return given


def _named(kind: type) -> str:
    """`a tuple`, `None`, `a modetable.rules.policy.Policy`: a type as the
    messages name it."""
    if kind is type(None):
        return "None"
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    return f"a {name}"


def made_by(kind: str | type | tuple[type, ...], maker: str) -> Any:
    """An attrs validator for a field of a public class that only modetable
    fills (the class is made by `maker`): a `TypeError` when the value is not
    a `kind`: a type, or `module:Class`, imported when first checked, so that
    a result's engine is not imported before it is used."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(kind, str):
            import importlib

            module, _, class_name = kind.partition(":")
            found: type | tuple[type, ...] = getattr(importlib.import_module(module), class_name)
            expected = f"a {module}.{class_name}"
        else:
            found = kind
            expected = " or ".join(
                _named(k) for k in (kind if isinstance(kind, tuple) else (kind,))
            )
        if not isinstance(value, found):
            made = type(instance).__name__
            raise wrong_type(
                attribute.alias, f"{expected} (a modetable.{made} is made by {maker})", value
            )

    return check
