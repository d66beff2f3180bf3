"""Writing a file so that a reader, or a crash, never sees it half-written.

The new content goes to a temporary file in the same directory (so the rename
never crosses a file system), is flushed and fsynced, takes the old file's
permissions, and then replaces the old file in one `os.replace`. If anything
fails or is interrupted before the rename, the old file is untouched and the
temporary file is removed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from modetable.errors import Location, ModetableError

__all__ = ["write_bytes", "write_text"]

# Permissions a new file asks for; the process umask narrows them, as for open().
_NEW_FILE_MODE = 0o666
_ATTEMPTS = 100


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at `path` (or create it) with `data`, atomically.

    A symbolic link is followed: the file it points at is replaced, the link kept.
    Raises ModetableError (one line, with the path) when the file cannot be written.
    """
    target = Path(os.path.realpath(path))
    try:
        _replace(target, data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ModetableError(f"cannot write: {reason}", Location(str(path))) from None


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """`write_bytes` for text; the text is written as it is (no newline translation)."""
    write_bytes(path, text.encode(encoding))


def _replace(target: Path, data: bytes) -> None:
    try:
        mode: int | None = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd, temporary = _create_temporary(target)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        # Interrupted or failed before the rename: the old file still stands.
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(target.parent)


def _create_temporary(target: Path) -> tuple[int, Path]:
    """A new, exclusively created file beside `target` (hidden, recognisably ours)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_ATTEMPTS):
        candidate = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(candidate, flags, _NEW_FILE_MODE), candidate
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable; not every platform can open a directory."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
