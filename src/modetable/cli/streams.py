"""The streams a command reads and writes (kept apart so `--version` imports nothing else).

Standard output and error are wrapped so that a stream the system will not
write (closed with `>&-`, full like `/dev/full`, a disk error) ends the run in
one line instead of a traceback; a reader that went away (`| head`) is left to
the caller, which stays silent.
"""

from __future__ import annotations

from typing import Any, TextIO

import attrs

from modetable.errors import ErrorCode, ModetableError
from modetable.text.shown import escape

__all__ = ["Io", "Output", "OutputError"]


class OutputError(ModetableError):
    """A stream modetable writes to that the system refuses."""


class Output:
    """A text stream whose failures (other than a closed pipe) are OutputErrors;
    a `quiet` one (standard error, where nothing else could report them) drops them."""

    def __init__(self, stream: TextIO | None, name: str, *, quiet: bool = False) -> None:
        self.stream = stream
        self.name = name
        self.quiet = quiet

    def _failed(self, exc: OSError | None) -> OutputError:
        reason = "it is closed" if exc is None else (exc.strerror or str(exc))
        return OutputError(f"cannot write to {self.name}: {reason}", code=ErrorCode.CANNOT_WRITE)

    def write(self, text: str) -> int:
        if self.stream is None:
            if self.quiet:
                return 0
            raise self._failed(None)
        try:
            return self.stream.write(text)
        except OSError as exc:
            if self.quiet:
                return 0
            if isinstance(exc, BrokenPipeError):
                raise
            raise self._failed(exc) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.stream is None:
            return
        try:
            self.stream.flush()
        except OSError as exc:
            if self.quiet:
                return
            if isinstance(exc, BrokenPipeError):
                raise
            raise self._failed(exc) from None

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False


@attrs.frozen
class Io:
    stdin: TextIO | None
    stdout: Any
    stderr: Any

    def warn(self, message: str) -> None:
        self.stderr.write(f"modetable: warning: {escape(message)}\n")
