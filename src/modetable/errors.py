"""The one error type users can cause, carrying where it happened."""

from __future__ import annotations

import attrs


@attrs.frozen
class Location:
    """A place in an input file; line and column are 1-based."""

    file: str
    line: int | None = None
    col: int | None = None

    def __str__(self) -> str:
        if self.line is None:
            return self.file
        if self.col is None:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"


class ModetableError(Exception):
    """Bad input or usage: printed as one line, exit 2, never a traceback."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


class ErrorList(ModetableError):
    """Several problems found at once (a rules file is checked whole)."""

    def __init__(self, errors: list[ModetableError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors

    def lines(self) -> list[str]:
        return [str(e) for e in self.errors]
