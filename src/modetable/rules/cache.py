"""Loaded rules kept between runs, so a command does not structure and validate
the same rules file again (most of a cold start's cost: cattrs generates and
compiles a function per model class before it structures anything).

An entry holds what it was made from, read and compared before anything else:
a format line, modetable's version, the Python that wrote it, a fingerprint of
the code that builds and holds the rules (modetable's loading modules and the
libraries they use), the path as given (messages carry it), and the rules
file's bytes; then the pickled `(RuleFile, document, charges)`, `charges` being
what loading the file spent of the run's alias budget, spent again when the
entry serves, so every limit of a run counts the same with or without the
cache. The document (the YAML tree with every position, three quarters of
the entry) is pickled on its own inside it and unpickled only when first
read (`Deferred`): only a message about a place in the rules needs it, and a
cold command names none. So are the sections no command about one
InferenceService reads (`model.LATER_SECTIONS`: docs, findings,
suppression), each unpickled, and its classes made, when the rules are first
asked for it (`model.defer`). An entry made from anything else is ignored and rebuilt. Only rules
that loaded without error are written, so every error comes from the loader
itself, whatever the cache holds.

Two walls keep an entry from being a way into modetable:

- Only the user can have written it. The folder must be the user's, a folder,
  and writable by no one else; so must the entry, a regular file no larger
  than MAX_ENTRY_BYTES. A folder or entry that is not is refused with one
  warning (an entry is then rebuilt). A new folder is made 0700 and an entry
  0600 whatever the umask; an entry is written as a fresh temporary file,
  created exclusively, then renamed onto its name, so a link at the entry's
  name is replaced, never followed; every file is reached through the folder
  opened once, after it was checked.
- An entry is data that runs nothing, even where the first wall failed: its
  pickle is read by an unpickler that makes only the rules model's classes
  and the loader's YAML containers (`_Unpickler`); a global naming anything
  else (`os.system`, a builtin) refuses the entry, with a warning.

The folder: `$MODETABLE_CACHE_DIR`, else the platform's user cache folder
(`$XDG_CACHE_HOME` or `~/.cache`, `~/Library/Caches`) with `modetable` under
it. `MODETABLE_CACHE=0` turns the cache off; so does a platform that cannot
check who may write a file or reach files through an opened folder (Windows).
A folder that cannot be made or opened only means no cache.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import pickle
import stat
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from modetable.__about__ import __version__
from modetable.errors import Location
from modetable.rules.model import LATER_SECTIONS, RuleFile, defer
from modetable.settled import frozen

__all__ = [
    "CACHE_VARIABLE",
    "FOLDER_VARIABLE",
    "FORMAT",
    "LIBRARIES",
    "MAX_ENTRY_BYTES",
    "MODULES",
    "Deferred",
    "Warn",
    "cache_folder",
    "entry_name",
    "entry_path",
    "load_cached",
]

CACHE_VARIABLE = "MODETABLE_CACHE"  # "0" turns the cache off
FOLDER_VARIABLE = "MODETABLE_CACHE_DIR"
FORMAT = b"modetable rules cache 3\n"

# The bundled rules (100 KB) make an entry of about 0.3 MB; a file larger than
# this at an entry's name is refused by its size, unread, and rules whose entry
# would be larger are loaded each time instead.
MAX_ENTRY_BYTES = 16 * 1024 * 1024

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
    "rules/model/suppression.py",
    "rules/positions.py",
    "rules/validate.py",
    "rules/words.py",
    "settled.py",
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
_PRIVATE_FOLDER = 0o700
_PRIVATE_FILE = 0o600
_ATTEMPTS = 100
# Owners and modes to check, and files reached through an opened folder.
_CHECKABLE = hasattr(os, "getuid") and hasattr(os, "fchmod") and os.open in os.supports_dir_fd
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

# Where a refused folder or entry is said (a line, without `modetable: warning: `).
Warn = Callable[[str], None]


def cache_folder() -> Path | None:
    """Where entries are kept, or None when the cache is turned off."""
    if os.environ.get(CACHE_VARIABLE) == "0" or not _CHECKABLE:
        return None
    named = os.environ.get(FOLDER_VARIABLE)
    if named:
        return Path(named)
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "modetable"
    xdg = os.environ.get("XDG_CACHE_HOME")
    # The XDG rule: a relative value is invalid and ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache"
    return base / "modetable"


def entry_name(file: str) -> str:
    """The entry's name for the rules file named `file`: one per file and Python,
    so editing the file (or upgrading modetable) replaces the entry in place."""
    name = "\0".join((os.path.abspath(file), file, sys.version))
    checksum = zlib.crc32(name.encode("utf-8", "surrogateescape"))
    return f"rules-{checksum:08x}.pickle"


def entry_path(folder: Path, file: str) -> Path:
    """The entry for the rules file named `file` in `folder`."""
    return folder / entry_name(file)


def load_cached(
    file: str,
    data: bytes,
    parse: Callable[[], tuple[RuleFile, Any]],
    warn: Warn | None = None,
) -> tuple[RuleFile, Any]:
    """What `parse()` gives for the rules file `file` holding `data`: from the
    cache when an entry made from exactly these inputs is there (the document
    then a `Deferred`, read when first asked for), else parsed (raising what
    the loader raises) and then kept. A folder or entry refused is said once
    to `warn` (a line without `modetable: warning: `)."""
    folder = cache_folder()
    if folder is None:
        return parse()
    try:
        header = _header(file, data)
        name = entry_name(file)
    except Exception:  # a fingerprint that cannot be taken: no cache
        return parse()
    from modetable.parsing.yamlio import charge_again, charges_recorded

    said = warn or (lambda _text: None)
    place = _open_folder(folder, said)
    if place is None:
        return parse()
    try:
        found = _read(place, name, header, said)
        if found is not None:
            rules, blob, charges, refused = found
            refused.entry, refused.parse, refused.said = str(place.path / name), parse, said
            charge_again(charges)
            return rules, Deferred(blob, str(place.path / name), parse, said)
        with charges_recorded() as recorded:
            loaded = parse()
        charges = tuple((n, at.file, at.line, at.col, at.field) for n, at in recorded)
        rules, document = loaded
        _write(place, name, header, (rules, document, charges))
        return loaded
    finally:
        os.close(place.fd)


@frozen(eq=False)
class Deferred:
    """An entry's document, unpickled (by the same restricted unpickler) when
    first read; the same object each time for the same entry. A document that
    does not unpickle (an entry written by something else) is said to `said`
    and read from the rules file again through `parse`."""

    blob: bytes
    entry: str
    parse: Callable[[], tuple[RuleFile, Any]]
    said: Warn
    # The document read from the rules file, once, when the entry's is refused.
    _parsed: list[Any] = attrs.field(factory=list, init=False)

    def read(self) -> Any:
        if self._parsed:
            return self._parsed[0]
        try:
            return _document(self.blob)
        except Exception:
            self.said(f"the rules cache entry {self.entry} does not hold loaded rules; not used")
            document = self.parse()[1]
            self._parsed.append(document)
            return self._parsed[0]


class _Refusal:
    """What a section of an entry that does not unpickle is read from instead:
    the rules file, through the last load's `parse` (said to its `said`)."""

    def __init__(self) -> None:
        self.entry = ""
        self.parse: Callable[[], tuple[RuleFile, Any]] | None = None
        self.said: Warn = lambda _text: None

    def section(self, blob: bytes, name: str) -> Any:
        try:
            return _loads(blob)
        except Exception:
            self.said(f"the rules cache entry {self.entry} does not hold loaded rules; not used")
            if self.parse is None:
                raise
            return getattr(self.parse()[0], name)


@functools.lru_cache(maxsize=8)
def _document(blob: bytes) -> Any:
    document = _loads(blob)
    if not isinstance(document, dict):
        raise TypeError("not a document")
    return document


@frozen
class _Folder:
    """The cache folder, opened and found trustworthy: every entry is reached
    through `fd`, so the folder checked is the folder used."""

    path: Path
    fd: int


def _header(file: str, data: bytes) -> list[bytes]:
    """Everything an entry must have been made from, as its first bytes: each
    part's length (8 bytes), then the part."""
    parts = [
        FORMAT,
        __version__.encode(),
        sys.version.encode(),
        sys.implementation.cache_tag.encode(),
        _fingerprint(),
        file.encode("utf-8", "surrogateescape"),
        data,
    ]
    return [piece for part in parts for piece in (len(part).to_bytes(8, "big"), part)]


def _fingerprint() -> bytes:
    """The loading modules' source (a checksum of each) and each library's files
    as installed (size and modification time of its `__init__.py`)."""
    from importlib.util import find_spec

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sums = [_source_sum(here, name) for name in MODULES]
    for library in LIBRARIES:
        spec = find_spec(library)
        origin = spec.origin if spec is not None else None
        if origin is None:
            raise LookupError(library)
        facts = os.stat(origin)
        sums.append(f"{library}:{origin}:{facts.st_size}:{facts.st_mtime_ns}")
    return "\n".join(sums).encode("utf-8", "surrogateescape")


# Each module's checksum, by its path and what its status says of its content:
# a process that loads rules again and again (the API in a loop, the tests)
# reads a module again only when it changed (a new inode, size or time).
_SUMS: dict[tuple[str, int, int, int, int], str] = {}


def _source_sum(here: str, name: str) -> str:
    path = os.path.join(here, *name.split("/"))
    found = _SUMS.get(_stamp(path, os.stat(path)))
    if found is None:
        with open(path, "rb") as stream:
            # Kept under the status of what was read, whatever it was looked at.
            key = _stamp(path, os.fstat(stream.fileno()))
            found = _SUMS[key] = f"{name}:{zlib.crc32(stream.read()):08x}"
    return found


def _stamp(path: str, facts: os.stat_result) -> tuple[str, int, int, int, int]:
    return path, facts.st_dev, facts.st_ino, facts.st_size, facts.st_mtime_ns


def _problem(facts: os.stat_result, *, folder: bool) -> str | None:
    """Why a folder or entry cannot be trusted (the words after its path), or None."""
    mode = facts.st_mode
    if folder and not stat.S_ISDIR(mode):
        return "is not a folder"
    if not folder and stat.S_ISLNK(mode):
        return "is a symbolic link"
    if not folder and not stat.S_ISREG(mode):
        return "is not a regular file"
    if facts.st_uid != os.getuid():
        return f"belongs to another user (uid {facts.st_uid})"
    if mode & stat.S_IWOTH:
        return "is writable by everyone"
    if mode & stat.S_IWGRP:
        return "is writable by its group"
    if not folder and facts.st_size > MAX_ENTRY_BYTES:
        return f"is larger than the limit of {MAX_ENTRY_BYTES} bytes"
    return None


def _open_folder(folder: Path, said: Warn) -> _Folder | None:
    """The folder, made when missing, opened, and checked; None (having said why,
    when it is there but cannot be trusted) means no cache."""
    try:
        made = _make_folder(folder)
        # A folder just made is opened without following a link: one put in its
        # place must not have its target's permissions changed.
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC | (_NOFOLLOW if made else 0))
    except NotADirectoryError:
        with contextlib.suppress(OSError):
            if not os.path.isdir(folder) and os.path.exists(folder):
                said(f"the rules cache folder {folder} is not a folder; not used")
        return None
    except (OSError, ValueError):  # ValueError: a name the system cannot take
        return None
    problem = _problem(os.fstat(fd), folder=True)
    if problem is not None:
        os.close(fd)
        said(f"the rules cache folder {folder} {problem}; not used")
        return None
    if made:
        with contextlib.suppress(OSError):
            os.fchmod(fd, _PRIVATE_FOLDER)  # 0700 whatever the umask took away
    return _Folder(folder, fd)


def _make_folder(folder: Path) -> bool:
    """Make `folder` (0700, its parents as `mkdir -p` makes them) when missing;
    whether it was made."""
    try:
        os.mkdir(folder, _PRIVATE_FOLDER)
    except FileExistsError:
        return False
    except FileNotFoundError:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(folder, _PRIVATE_FOLDER)
        except FileExistsError:
            return False
    return True


def _read(
    place: _Folder, name: str, header: list[bytes], said: Warn
) -> tuple[RuleFile, bytes, list[tuple[int, Location]], _Refusal] | None:
    """The entry's rules, pickled document and charges when it was made from
    `header`; None for an entry absent, made from anything else, or refused (said)."""
    path = place.path / name
    try:
        payload = _payload(place, name, header)
    except _Refused as refused:
        said(f"the rules cache entry {path} {refused}; not used")
        return None
    except OSError:  # absent, unreachable, unreadable: made anew
        return None
    if payload is None:
        return None
    try:
        rules, document, charges, refused = _entry(payload)
    except Exception:
        said(f"the rules cache entry {path} does not hold loaded rules; not used")
        return None
    return rules, document, list(charges), refused


# A process that loads the same rules again (the Python API called in a loop, a
# server) gets the entry it already made from these very bytes: every check on
# the folder, the entry file and its header above still runs each time; only
# the unpickling is not done twice. The rules are frozen and their document is
# only read (positions), so sharing them is safe; a few entries are kept, for
# a process that switches between versions' rules files.
@functools.lru_cache(maxsize=8)
def _entry(
    payload: bytes,
) -> tuple[RuleFile, bytes, tuple[tuple[int, Location], ...], _Refusal]:
    """The rules (their later sections deferred), pickled document and charges
    of an entry's payload; raises for a payload that does not hold them."""
    found = _loads(payload)
    if not isinstance(found, tuple) or len(found) != 4:
        raise TypeError("not an entry")
    rules, later, document, charges = found
    if not (isinstance(rules, RuleFile) and type(document) is bytes):
        raise TypeError("not rules")
    if not (type(later) is dict and tuple(later) == LATER_SECTIONS):
        raise TypeError("not rules")
    if any(type(blob) is not bytes or getattr(rules, n) is not None for n, blob in later.items()):
        raise TypeError("not rules")
    charged = tuple(_charge(*charge) for charge in charges)
    refused = _Refusal()
    sections = {n: functools.partial(refused.section, blob, n) for n, blob in later.items()}
    return defer(rules, sections), document, charged, refused


class _Refused(Exception):
    """An entry that cannot be trusted; its text says why."""


def _payload(place: _Folder, name: str, header: list[bytes]) -> bytes | None:
    """What follows the header in the entry `name`, or None when the entry was
    made from anything else. Raises _Refused, or OSError when it cannot be read."""
    facts = os.stat(name, dir_fd=place.fd, follow_symlinks=False)
    problem = _problem(facts, folder=False)
    if problem is not None:
        raise _Refused(problem)
    # Not through a link, and without waiting: a FIFO put in its place since it
    # was looked at must not block the command.
    flags = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
    with os.fdopen(os.open(name, flags, dir_fd=place.fd), "rb") as stream:
        opened = os.fstat(stream.fileno())
        if (opened.st_dev, opened.st_ino) != (facts.st_dev, facts.st_ino):
            return None  # replaced since it was looked at: made anew
        problem = _problem(opened, folder=False)
        if problem is not None:
            raise _Refused(problem)
        # Each part's length, then the part, each compared before more is read.
        for part in header:
            if stream.read(len(part)) != part:
                return None
        # As much as it held when looked at (within the limit, as checked): a
        # read asks for no more memory than that.
        return stream.read(max(opened.st_size - sum(map(len, header)), 0))


def _charge(
    count: int, file: str, line: int | None, col: int | None, field: str | None
) -> tuple[int, Location]:
    """A recorded charge as `charge_again` makes it."""
    if type(count) is not int or not isinstance(file, str):
        raise TypeError("not a charge")
    return count, Location(file, line, col, field)


def _dumps(entry: tuple[Any, ...]) -> bytes:
    """An entry's payload (bench/cache_formats.py measures the other formats)."""
    return pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)


def _loads(payload: bytes) -> Any:
    return _Unpickler(io.BytesIO(payload)).load()


class _Unpickler(pickle.Unpickler):
    """An unpickler that makes the rules model's classes and the loader's YAML
    containers, and nothing else: no function, no builtin, no other class. The
    pickle of a RuleFile and its document needs no more (attrs' classes are
    made with `__new__` and filled from their state), so a pickle naming
    anything else was not written by modetable and is refused."""

    def find_class(self, module: str, name: str) -> Any:
        found = _allowed(module).get(name)
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not a class of the rules")
        return found


# The rules model's modules (a section per module), by name.
_MODEL = frozenset(
    "modetable." + path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    for path in MODULES
    if path.startswith("rules/model/")
)


@functools.cache
def _allowed(module: str) -> dict[str, type]:
    """The classes an entry may make from `module`, by name: a rules model
    module's attrs classes (the module imported when not yet: a section read
    later), `rules/words.py`'s enums (the words the rules hold), and the
    mappings and lists the loader builds; no other module's."""
    import enum
    import importlib

    from modetable.parsing import yamlio
    from modetable.rules import words

    if module in _MODEL:
        found = importlib.import_module(module)
        return {
            value.__qualname__: value
            for value in vars(found).values()
            if isinstance(value, type) and value.__module__ == module and attrs.has(value)
        }
    if module == words.__name__:
        return {
            value.__qualname__: value
            for value in vars(words).values()
            if isinstance(value, type)
            and value.__module__ == module
            and issubclass(value, enum.Enum)
        }
    if module == yamlio.__name__:
        return {kind.__qualname__: kind for kind in (yamlio.YamlMap, yamlio.YamlList)}
    return {}


def _write(place: _Folder, name: str, header: list[bytes], entry: tuple[Any, ...]) -> None:
    """Keep `entry` under `name`; any failure only means no cache."""
    rules, document, charges = entry
    try:
        kept = attrs.evolve(rules, **dict.fromkeys(LATER_SECTIONS))
        later = {name: _dumps(getattr(rules, name)) for name in LATER_SECTIONS}
        blob = b"".join(header) + _dumps((kept, later, _dumps(document), charges))
    except Exception:
        return
    if len(blob) > MAX_ENTRY_BYTES:
        # Too large to keep: whatever stands at the name is stale, and goes.
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=place.fd)
        return
    with contextlib.suppress(Exception):
        _replace(place, name, blob)
        _prune(place, keep=name)


def _replace(place: _Folder, name: str, blob: bytes) -> None:
    """`blob` written to a new file in the folder (created exclusively, 0600, never
    through a link), then renamed onto `name`: a link there is replaced, not followed."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    for _ in range(_ATTEMPTS):
        temporary = f".{name}.{_token()}.tmp"
        try:
            fd = os.open(temporary, flags, _PRIVATE_FILE, dir_fd=place.fd)
            break
        except FileExistsError:
            continue
    else:
        return
    try:
        with os.fdopen(fd, "wb") as stream:
            os.fchmod(fd, _PRIVATE_FILE)  # 0600 whatever the umask took away
            stream.write(blob)
            stream.flush()
            os.fsync(fd)
        os.replace(temporary, name, src_dir_fd=place.fd, dst_dir_fd=place.fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=place.fd)
        raise


def _token() -> str:
    """Eight hex digits for a temporary file's name (`secrets` costs a cold
    start hashlib and hmac)."""
    return os.urandom(4).hex()


def _prune(place: _Folder, keep: str) -> None:
    """Remove entries (and temporary files a killed run left) not written for a
    month: each name itself, a link as a link, never what it points at."""
    stale = time.time() - _STALE_SECONDS
    with os.scandir(place.fd) as found:
        for item in found:
            name = item.name
            ours = name.startswith("rules-") and name.endswith(".pickle")
            leftover = name.startswith(".rules-") and name.endswith(".tmp")
            if name == keep or not (ours or leftover):
                continue
            with contextlib.suppress(OSError):
                if item.stat(follow_symlinks=False).st_mtime < stale:
                    os.unlink(name, dir_fd=place.fd)
