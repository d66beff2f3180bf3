"""The streams a command reads and writes (kept apart so `--version` imports nothing else).

Standard output and error are wrapped so that a stream the system will not
write (closed with `>&-`, full like `/dev/full`, a file-size limit, a disk
error) ends the run in one line instead of a traceback; a reader that went away
(`| head`) is left to the caller, which stays silent.

A real stream is written through its bytes, every short write continued until
the system takes the rest or refuses it: Python's text layer drops the rest of
a short write when the bytes below are unbuffered (`PYTHONUNBUFFERED=1`,
`python -u`), so under `ulimit -f` half a page would end like a whole one.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
from collections.abc import Callable
from typing import Any, BinaryIO, TextIO

from modetable.errors import ErrorCode, ModetableError
from modetable.settled import frozen
from modetable.text.shown import escape

__all__ = ["Io", "Output", "OutputError"]


class OutputError(ModetableError):
    """A stream modetable writes to that the system refuses."""


class Output:
    """A text stream whose failures (other than a closed pipe) are OutputErrors;
    a `quiet` one (standard error, where nothing else could report them) drops them.
    Every write, and the last flush, is whole or an error."""

    def __init__(self, stream: TextIO | None, name: str, *, quiet: bool = False) -> None:
        self.stream = stream
        self.name = name
        self.quiet = quiet
        self._below = _bytes_below(stream)
        self._text_flushed = False

    def _failed(self, exc: OSError | None) -> OutputError:
        reason = "it is closed" if exc is None else (exc.strerror or str(exc))
        return OutputError(f"cannot write to {self.name}: {reason}", code=ErrorCode.CANNOT_WRITE)

    def _refused(self, exc: OSError) -> None:
        if self.quiet:
            return
        if isinstance(exc, BrokenPipeError):
            raise exc
        raise self._failed(exc) from None

    def write(self, text: str) -> int:
        if self.stream is None:
            if self.quiet:
                return 0
            raise self._failed(None)
        try:
            if self._below is None:
                return self.stream.write(text)
            self._write_every_byte(self.stream, self._below, text)
        except OSError as exc:
            self._refused(exc)
            return 0
        return len(text)

    def _write_every_byte(self, stream: TextIO, below: _Below, text: str) -> None:
        if not self._text_flushed:
            # What was written through the text layer before goes first.
            stream.flush()
            self._text_flushed = True
        if os.linesep != "\n":  # as the standard streams translate newlines
            text = text.replace("\n", os.linesep)
        data = memoryview(below.encode(text))
        while data:
            written = below.stream.write(data)
            if written is None:  # a non-blocking stream that would block
                raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
            if written <= 0:
                raise OSError(errno.EIO, "the system took none of the bytes written")
            data = data[written:]
        if below.line_buffered and ("\n" in text or "\r" in text):
            below.stream.flush()

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.stream is None:
            return
        try:
            self.stream.flush()
            if self._below is not None:
                self._below.stream.flush()
        except OSError as exc:
            self._refused(exc)

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False


@frozen
class _Below:
    """The bytes under a real text stream, and how its text becomes them: its
    encoding and errors (cli sets backslashreplace), its line buffering (a
    terminal's lines appear as they are written)."""

    stream: BinaryIO
    encode: Callable[[str], bytes]
    line_buffered: bool


def _bytes_below(stream: TextIO | None) -> _Below | None:
    """The binary stream under a real text stream (the standard streams, and
    pytest's captures of them), which Output writes itself; None for any other
    (a StringIO), written as text."""
    if not isinstance(stream, io.TextIOWrapper):
        return None
    try:
        below = stream.buffer
        if not below.writable():
            return None
        encoder = codecs.getincrementalencoder(stream.encoding)(stream.errors or "strict")
    except (ValueError, OSError, AttributeError, LookupError):  # detached, closed, unknown
        return None
    return _Below(below, encoder.encode, stream.line_buffering)


@frozen
class Io:
    stdin: TextIO | None
    stdout: Any
    stderr: Any

    def warn(self, message: str) -> None:
        self.stderr.write(f"modetable: warning: {escape(message)}\n")
