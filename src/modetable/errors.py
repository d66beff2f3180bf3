"""The one error type users can cause, carrying what kind it is and where it
happened; and `Problem`, the same as a value (what `rules check` reports)."""

from __future__ import annotations

from enum import StrEnum

from modetable.settled import frozen
from modetable.text.shown import escape

__all__ = [
    "ErrorCode",
    "ErrorList",
    "Location",
    "ModetableError",
    "ModetableWarning",
    "Problem",
]


@frozen
class Location:
    """A place in an input file; line and column are 1-based.

    An object given in memory has no file: `file` names the object (its kind,
    namespace and name, and where it stood among the objects given) and
    `field` the path to the value inside it (`spec.model.name`).
    """

    file: str
    line: int | None = None
    col: int | None = None
    field: str | None = None

    def __attrs_post_init__(self) -> None:
        # One check of the documented types, for a Location a caller makes
        # (modetable makes thousands, so no validator per field).
        if not isinstance(self.file, str):
            raise _wrong_type("file", "a str", self.file)
        for argument, value in (("line", self.line), ("col", self.col)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise _wrong_type(argument, "an int or None", value)
        if self.field is not None and not isinstance(self.field, str):
            raise _wrong_type("field", "a str or None", self.field)

    def __str__(self) -> str:
        # A file name can hold a newline or bytes that are not UTF-8: shown escaped.
        file = escape(self.file)
        if self.field is not None:
            return f"{file} at {self.field}"
        if self.line is None:
            return file
        if self.col is None:
            return f"{file}:{self.line}"
        return f"{file}:{self.line}:{self.col}"


class ErrorCode(StrEnum):
    """The kind of an error, stable for programs (docs/json.md lists them)."""

    BAD_INPUT = "bad-input"  # any other bad input or usage
    DUPLICATE_KEY = "duplicate-key"
    UNKNOWN_KEY = "unknown-key"
    MISSING_KEY = "missing-key"
    WRONG_TYPE = "wrong-type"
    NOT_ALLOWED = "not-allowed"
    UNQUOTED_VERSION = "unquoted-version"
    BAD_VERSION = "bad-version"
    BAD_RANGE = "bad-range"
    DUPLICATE_NAME = "duplicate-name"
    UNDEFINED_REF = "undefined-ref"
    UNKNOWN_PLACEHOLDER = "unknown-placeholder"
    BAD_TEMPLATE = "bad-template"
    PARAMS_NOT_PASSED = "params-not-passed"
    INCOMPLETE_RULE = "incomplete-rule"
    BAD_DOCUMENT = "bad-document"
    UNKNOWN_VERSION = "unknown-version"
    BROKEN_CHAIN = "broken-chain"
    DENIED = "denied"
    BAD_TAG = "bad-tag"
    OVER_LIMIT = "over-limit"
    CANNOT_READ = "cannot-read"
    CANNOT_WRITE = "cannot-write"


@frozen
class Problem:
    """One problem with an input: its code, message and place; a rules file's
    analysis adds warnings and the versions a problem holds in."""

    code: str
    message: str
    location: Location | None = None
    # A word of rules.words.Severity (error or warning): the rules layer sits
    # above this module, so the type is not named here.
    severity: str = "error"
    versions: tuple[str, ...] = ()

    def __str__(self) -> str:
        versions = f" [{', '.join(self.versions)}]" if self.versions else ""
        return f"{self.location}: {self.severity}: {self.code}{versions}: {self.message}"


class ModetableError(Exception):
    """Bad input or usage: printed as one line, exit 2, never a traceback."""

    def __init__(
        self, message: str, location: Location | None = None, *, code: str = ErrorCode.BAD_INPUT
    ) -> None:
        if not isinstance(message, str):
            raise _wrong_type("message", "a str", message)
        if location is not None and not isinstance(location, Location):
            raise _wrong_type("location", "a modetable.Location or None", location)
        if not isinstance(code, str):
            raise _wrong_type("code", "a str (an ErrorCode)", code)
        super().__init__(message)
        self.message = message
        self.location = location
        self.code = code

    @property
    def problem(self) -> Problem:
        return Problem(code=self.code, message=self.message, location=self.location)

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


class ErrorList(ModetableError):
    """Several problems found at once (a rules file is checked whole)."""

    def __init__(self, errors: list[ModetableError]) -> None:
        if not isinstance(errors, list) or not all(isinstance(e, ModetableError) for e in errors):
            raise _wrong_type("errors", "a list of ModetableError", errors)
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors

    def lines(self) -> list[str]:
        return [str(e) for e in self.errors]


def _wrong_type(argument: str, expected: str, value: object) -> TypeError:
    """As the API says a wrong type (modetable/api/arguments.py)."""
    return TypeError(f"{argument} must be {expected}, got {type(value).__name__}")


class ModetableWarning(UserWarning):
    """What the command line writes as `modetable: warning: ...`, given to the
    Python API's callers through the `warnings` module (a release newer than the
    rules describe, an object defined twice)."""
