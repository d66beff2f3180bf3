"""A progress bar on stderr, drawn only when the work runs long and stderr is a terminal."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["REDRAW_SECONDS", "SHOW_AFTER_SECONDS", "WIDTH", "Progress"]

WIDTH = 30
# Draw nothing for work that ends sooner, and redraw at most this often.
SHOW_AFTER_SECONDS = 0.5
REDRAW_SECONDS = 0.1


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class Progress:
    """`advance()` once per item; `close()` wipes the bar, leaving stderr as it was."""

    def __init__(
        self,
        stream: TextIO,
        total: int,
        label: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        enabled: bool | None = None,
    ) -> None:
        self.stream = stream
        self.total = total
        self.label = label
        self.clock = clock
        self.enabled = _is_terminal(stream) if enabled is None else enabled
        self.done = 0
        self.started = clock()
        self.drawn_at: float | None = None
        self.drawn_width = 0

    def advance(self, count: int = 1) -> None:
        self.done += count
        if not self.enabled:
            return
        now = self.clock()
        if now - self.started < SHOW_AFTER_SECONDS:
            return
        if self.drawn_at is not None and now - self.drawn_at < REDRAW_SECONDS:
            return
        self._draw(now)

    def _draw(self, now: float) -> None:
        share = self.done / self.total if self.total else 1.0
        filled = int(WIDTH * share)
        text = (
            f"\r{self.label} [{'#' * filled}{'.' * (WIDTH - filled)}] "
            f"{self.done}/{self.total} ({share:.0%})"
        )
        self.stream.write(text)
        self.stream.flush()
        self.drawn_at = now
        self.drawn_width = len(text) - 1

    def close(self) -> None:
        if self.drawn_at is not None:
            self.stream.write("\r" + " " * self.drawn_width + "\r")
            self.stream.flush()
            self.drawn_at = None
