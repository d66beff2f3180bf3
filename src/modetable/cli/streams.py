"""The streams a command reads and writes (kept apart so `--version` imports nothing else)."""

from __future__ import annotations

from typing import TextIO

import attrs

__all__ = ["Io"]


@attrs.frozen
class Io:
    stdin: TextIO
    stdout: TextIO
    stderr: TextIO

    def warn(self, message: str) -> None:
        self.stderr.write(f"modetable: warning: {message}\n")
