"""Loaded rules kept between runs, so a command does not structure and validate
the same rules file again (most of a cold start's cost: cattrs generates and
compiles a function per model class before it structures anything).

An entry holds what it was made from, compared whole before it is used: a
format line, modetable's version, the Python that wrote it, a fingerprint of
the code that builds and holds the rules (modetable's loading modules and the
libraries they use), the path as given (messages carry it), and the rules
file's bytes; then the pickled `(RuleFile, document)`. Anything that does not
match, cannot be read or does not unpickle to rules is ignored and rebuilt.
Only rules that loaded without error are written, so every error comes from
the loader itself, whatever the cache holds.

The folder: `$MODETABLE_CACHE_DIR`, else the platform's user cache folder
(`$XDG_CACHE_HOME` or `~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`) with
`modetable` under it. `MODETABLE_CACHE=0` turns the cache off. A folder that is
writable by everyone or owned by someone else is not used (unpickling runs
code), nor is an entry owned by someone else; a folder that cannot be written
only means no cache.
"""

from __future__ import annotations

import os
import pickle
import stat
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from modetable.__about__ import __version__
from modetable.rules.model import RuleFile

__all__ = [
    "CACHE_VARIABLE",
    "FOLDER_VARIABLE",
    "FORMAT",
    "LIBRARIES",
    "MODULES",
    "cache_folder",
    "entry_path",
    "load_cached",
]

CACHE_VARIABLE = "MODETABLE_CACHE"  # "0" turns the cache off
FOLDER_VARIABLE = "MODETABLE_CACHE_DIR"
FORMAT = b"modetable rules cache 1\n"

# modetable's modules whose code decides what loading a rules file gives: the
# loader and everything it imports (tests/test_rules_cache.py holds this list
# equal to rules/load.py's imports, followed through).
MODULES = (
    "errors.py",
    "parsing/__init__.py",
    "parsing/yamlio.py",
    "rules/find.py",
    "rules/kinds.py",
    "rules/load.py",
    "rules/model/__init__.py",
    "rules/model/admission.py",
    "rules/model/docs.py",
    "rules/model/findings.py",
    "rules/model/manifests.py",
    "rules/model/matching.py",
    "rules/model/messages.py",
    "rules/model/modes.py",
    "rules/model/names.py",
    "rules/model/rollout.py",
    "rules/model/runtimes.py",
    "rules/model/selection.py",
    "rules/model/sources.py",
    "rules/positions.py",
    "rules/validate.py",
    "rules/words.py",
    "text/__init__.py",
    "text/shown.py",
    "text/templates.py",
    "versions.py",
)
# The libraries that build the rules (cattrs, PyYAML, packaging) or hold them
# (attrs' pickling of its classes): an upgrade without a modetable release
# must not be served from an entry the old ones made.
LIBRARIES = ("attr", "cattrs", "packaging", "yaml")

# An entry not rewritten for this long is removed when another one is written.
_STALE_SECONDS = 30 * 24 * 3600


def cache_folder() -> Path | None:
    """Where entries are kept, or None when the cache is turned off."""
    if os.environ.get(CACHE_VARIABLE) == "0":
        return None
    named = os.environ.get(FOLDER_VARIABLE)
    if named:
        return Path(named)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "modetable" / "Cache" if base else None
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "modetable"
    xdg = os.environ.get("XDG_CACHE_HOME")
    # The XDG rule: a relative value is invalid and ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache"
    return base / "modetable"


def entry_path(folder: Path, file: str) -> Path:
    """The entry for the rules file named `file`: one per file and Python, so
    editing the file (or upgrading modetable) replaces the entry in place."""
    name = "\0".join((os.path.abspath(file), file, sys.version))
    checksum = zlib.crc32(name.encode("utf-8", "surrogateescape"))
    return folder / f"rules-{checksum:08x}.pickle"


def load_cached(
    file: str, data: bytes, parse: Callable[[], tuple[RuleFile, Any]]
) -> tuple[RuleFile, Any]:
    """What `parse()` gives for the rules file `file` holding `data`: from the
    cache when an entry made from exactly these inputs is there, else parsed
    (raising what the loader raises) and then kept."""
    folder = cache_folder()
    if folder is None:
        return parse()
    try:
        prefix = _prefix(file, data)
        entry = entry_path(folder, file)
    except Exception:  # a fingerprint that cannot be taken: no cache
        return parse()
    found = _read(folder, entry, prefix)
    if found is not None:
        return found
    loaded = parse()
    _write(folder, entry, prefix, loaded)
    return loaded


def _prefix(file: str, data: bytes) -> bytes:
    """Everything an entry must have been made from, as its first bytes."""
    parts = [
        FORMAT,
        __version__.encode(),
        sys.version.encode(),
        sys.implementation.cache_tag.encode(),
        _fingerprint(),
        file.encode("utf-8", "surrogateescape"),
        data,
    ]
    return b"".join(len(part).to_bytes(8, "big") + part for part in parts)


def _fingerprint() -> bytes:
    """The loading modules' source (a checksum of each) and each library's files
    as installed (size and modification time of its `__init__.py`)."""
    from importlib.util import find_spec

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sums = []
    for name in MODULES:
        with open(os.path.join(here, *name.split("/")), "rb") as stream:
            sums.append(f"{name}:{zlib.crc32(stream.read()):08x}")
    for library in LIBRARIES:
        spec = find_spec(library)
        origin = spec.origin if spec is not None else None
        if origin is None:
            raise LookupError(library)
        facts = os.stat(origin)
        sums.append(f"{library}:{origin}:{facts.st_size}:{facts.st_mtime_ns}")
    return "\n".join(sums).encode("utf-8", "surrogateescape")


def _ours(facts: os.stat_result, *, folder: bool) -> bool:
    """Whether a folder or file may be trusted: ours, not writable by everyone."""
    kind = stat.S_ISDIR if folder else stat.S_ISREG
    if not kind(facts.st_mode) or facts.st_mode & stat.S_IWOTH:
        return False
    getuid = getattr(os, "getuid", None)
    return getuid is None or facts.st_uid == getuid()


def _read(folder: Path, entry: Path, prefix: bytes) -> tuple[RuleFile, Any] | None:
    try:
        if not _ours(os.stat(folder), folder=True):
            return None
        # Without waiting: an entry that is a FIFO would block every command
        # (it is then refused as no regular file).
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        flags |= getattr(os, "O_NONBLOCK", 0)
        fd = os.open(entry, flags)
        with os.fdopen(fd, "rb") as stream:
            if not _ours(os.fstat(stream.fileno()), folder=False):
                return None
            blob = stream.read()
        if not blob.startswith(prefix):
            return None
        found = pickle.loads(memoryview(blob)[len(prefix) :])
    except Exception:  # absent, unreadable, truncated, foreign: rebuilt
        return None
    if (
        isinstance(found, tuple)
        and len(found) == 2
        and isinstance(found[0], RuleFile)
        and isinstance(found[1], dict)
    ):
        return found
    return None


def _write(folder: Path, entry: Path, prefix: bytes, loaded: tuple[RuleFile, Any]) -> None:
    """Keep `loaded` under `entry`; any failure only means no cache."""
    try:
        payload = pickle.dumps(loaded, protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _ours(os.stat(folder), folder=True):
            return
        from modetable.output import atomic

        atomic.write_bytes(entry, prefix + payload)
        _prune(folder, keep=entry)
    except Exception:
        pass


def _prune(folder: Path, keep: Path) -> None:
    """Remove entries (and temporary files a killed run left) not written for a month."""
    stale = time.time() - _STALE_SECONDS
    for path in folder.iterdir():
        name = path.name
        ours = name.startswith("rules-") and name.endswith(".pickle")
        leftover = name.startswith(".rules-") and name.endswith(".tmp")
        if path != keep and (ours or leftover) and path.lstat().st_mtime < stale:
            path.unlink(missing_ok=True)
