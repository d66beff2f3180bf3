"""Writing files so that a reader, or a crash, never sees one half-written, and
a set of files is written all or none.

What "all or none" can mean on a POSIX file system, which has no transaction
over several files:

1. Staging: every file's new content is written in full to a temporary file
   beside it (so the rename never crosses a file system), flushed and fsynced,
   with the old file's permissions; a folder that is missing is made; the file
   it replaces keeps a second name (a hard link). A failure or an interruption
   here (an error, Ctrl-C, SIGTERM, SIGHUP) removes what staging made: nothing changed.
2. Renames: only when every file is staged is each temporary file renamed over
   its target (`os.replace`, atomic per file), with SIGINT, SIGTERM and SIGHUP held
   until the last one. A rename that fails puts back the files renamed before
   it, from their second names.

So each file is always whole, and the set is all new or all old, except if
the process is killed outright (SIGKILL, power loss) during step 2, which
lasts a few microseconds a file: then some files can be new and the others
old, each still whole, and a temporary file can be left beside its target
(hidden, named `.NAME.XXXXXXXX.tmp`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.output import stops

__all__ = ["write_bytes", "write_files", "write_text"]

# Permissions a new file asks for; the process umask narrows them, as for open().
_NEW_FILE_MODE = 0o666
_ATTEMPTS = 100
_HELD_SIGNALS = {
    signal.SIGINT,
    signal.SIGTERM,
    *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else []),
}


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at `path` (or create it) with `data`, atomically.

    A symbolic link is followed: the file it points at is replaced, the link kept.
    Raises ModetableError (one line, with the path) when the file cannot be written.
    """
    write_files([(path, data)])


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """`write_bytes` for text; the text is written as it is (no newline translation)."""
    write_bytes(path, text.encode(encoding))


@attrs.define
class _Staged:
    name: str  # as the caller named it, for messages
    target: Path
    temporary: Path
    backup: Path | None  # a second name of the file replaced, None when new
    renamed: bool = False


def write_files(files: Sequence[tuple[str | os.PathLike[str], bytes]]) -> None:
    """Replace (or create) every file of `files` with its bytes, all or none
    (see the module's docstring for what that means exactly)."""
    staged: list[_Staged] = []
    made: list[Path] = []
    # Every name staging may create, noted before it is created: a signal can
    # land between creating a file and learning its name.
    created: list[Path] = []
    try:
        for path, data in files:
            staged.append(_stage(str(path), data, made, created))
        stops.honour()  # the last moment a stop leaves every file as it was
        with _signals_held():
            _rename_all(staged)
            for item in staged:
                _remove(item.backup)
    except BaseException:
        renamed = {item.temporary for item in staged if item.renamed}
        for name in created:
            if name not in renamed:
                _remove(name)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    for directory in dict.fromkeys(item.target.parent for item in staged):
        _sync_directory(directory)


def _stage(name: str, data: bytes, made: list[Path], created: list[Path]) -> _Staged:
    _make_folders(Path(name).parent, made)  # as named, so an error names them so
    target = Path(os.path.realpath(name))
    try:
        if target.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        try:
            mode: int | None = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = None
        fd, temporary = _create_temporary(target, created)
    except OSError as exc:
        raise _cannot_write(exc, name) from None
    item = _Staged(name, target, temporary, None)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            # A stop a finalizer swallowed (output/stops.py) is taken before the
            # wait for the disk, which can be long.
            stops.honour()
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
            item.backup = _second_name(target, created)
    except BaseException as exc:
        _remove(temporary)
        if isinstance(exc, OSError):
            raise _cannot_write(exc, name) from None
        raise
    return item


def _rename_all(staged: list[_Staged]) -> None:
    """Each temporary file over its target; on a failure, the ones done put back."""
    current = None
    try:
        for item in staged:
            current = item
            os.replace(item.temporary, item.target)
            item.renamed = True
    except OSError as exc:
        for item in staged:
            if item.renamed:
                with contextlib.suppress(OSError):
                    if item.backup is not None:
                        os.replace(item.backup, item.target)
                        item.backup = None
                    else:
                        os.unlink(item.target)
        raise _cannot_write(exc, current.name if current else "") from None


def _make_folders(folder: Path, made: list[Path]) -> None:
    """`folder` and the folders above it that are missing, each noted in `made`."""
    missing = []
    for parent in (folder, *folder.parents):
        if parent.is_dir():
            break
        missing.append(parent)
    for parent in reversed(missing):
        made.append(parent)  # before it exists: an interruption still removes it
        try:
            parent.mkdir()
        except FileExistsError:
            made.pop()
            raise ModetableError(
                "cannot create the folder: a file of that name is in the way",
                Location(str(parent)),
                code=ErrorCode.CANNOT_WRITE,
            ) from None
        except OSError as exc:
            made.pop()
            raise ModetableError(
                f"cannot create the folder: {exc.strerror or exc}",
                Location(str(parent)),
                code=ErrorCode.CANNOT_WRITE,
            ) from None


def _cannot_write(exc: OSError, name: str) -> ModetableError:
    return ModetableError(
        f"cannot write: {exc.strerror or exc}", Location(name), code=ErrorCode.CANNOT_WRITE
    )


def _second_name(target: Path, created: list[Path]) -> Path | None:
    """A hard link to `target` beside it, to put it back with; None where the file
    system has no hard links (then a failed rename cannot be undone)."""
    for _ in range(_ATTEMPTS):
        candidate = target.with_name(f".{target.name}.{secrets.token_hex(4)}.old")
        created.append(candidate)
        try:
            os.link(target, candidate)
            return candidate
        except FileExistsError:
            created.pop()  # not ours
            continue
        except OSError:
            created.pop()
            return None
    return None


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP wait until the block ends (then they are delivered)."""
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    except (AttributeError, ValueError, OSError):  # no signal masks here
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _remove(path: Path | None) -> None:
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _create_temporary(target: Path, created: list[Path]) -> tuple[int, Path]:
    """A new, exclusively created file beside `target` (hidden, recognisably ours)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_ATTEMPTS):
        candidate = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        created.append(candidate)
        try:
            return os.open(candidate, flags, _NEW_FILE_MODE), candidate
        except FileExistsError:
            created.pop()  # not ours
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def _sync_directory(directory: Path) -> None:
    """Make the renames themselves durable; not every platform can open a directory."""
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
