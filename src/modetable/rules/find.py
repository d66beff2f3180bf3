"""Which rules file to read: one lookup for every command and for the API.

A path given (`--rules FILE`), else the file `MODETABLE_RULES` names, else
`rules/modes.yaml` under the current directory when there is one and it is a
modetable rules file (the file a policy author edits in a clone; another tool's
file of that name is skipped with a warning), else the copy bundled with
modetable.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

from modetable.errors import ModetableError
from modetable.settled import frozen

__all__ = [
    "BUNDLED_PARTS",
    "HERE",
    "RULES_VARIABLE",
    "VERSION_VARIABLE",
    "How",
    "RulesPath",
    "asked_version",
    "bundled_rules_path",
    "find_rules",
    "holds_bundled_rules",
    "is_rules_file",
    "named_by",
    "read_rules_bytes",
]

RULES_VARIABLE = "MODETABLE_RULES"
VERSION_VARIABLE = "MODETABLE_OME_VERSION"
HERE = Path("rules") / "modes.yaml"
# Where the wheel puts the bundled rules (pyproject's force-include): the
# checkout's layout, schema/ beside rules/, so the schema line at the top of
# the file works in the installed copy too.
BUNDLED_PARTS = ("_bundled", "rules", "modes.yaml")

How = Literal["given", "environment", "here", "bundled"]
# The top-level keys every modetable rules file holds, wherever an edit moved
# them: the first two of its format, both required (rules/model RuleFile).
_OWN_KEYS = frozenset({"format", "product"})


@frozen
class RulesPath:
    """A rules file found, how it was found, and whether it is the bundled copy
    itself (a file holding the same bytes: `holds_bundled_rules`)."""

    path: Path
    how: How
    bundled: bool

    @property
    def variable(self) -> str | None:
        """The environment variable that named the file, if one did."""
        return RULES_VARIABLE if self.how == "environment" else None


@contextlib.contextmanager
def named_by(variable: str | None) -> Iterator[None]:
    """An error about a value an environment variable gave names the variable
    (`... (from $MODETABLE_RULES)`): set long ago, it is not on the command line."""
    try:
        yield
    except ModetableError as exc:
        if variable is None:
            raise
        raise ModetableError(
            f"{exc.message} (from ${variable})", exc.location, code=exc.code
        ) from None


def find_rules(
    path: str | Path | None = None, warn: Callable[[str], None] | None = None
) -> RulesPath:
    """The rules file to read: `path`, else $MODETABLE_RULES, else ./rules/modes.yaml
    when it exists and is a modetable rules file (`is_rules_file`), else the
    bundled copy (an empty variable counts as unset). A ./rules/modes.yaml that
    is not one, which modetable was not asked to read, is skipped and said once
    to `warn`; a file given or named by the variable is read whatever it is
    (the loader's errors say what is wrong with it)."""
    if path is not None:
        return RulesPath(Path(path), "given", _is_bundled(Path(path)))
    named = os.environ.get(RULES_VARIABLE)
    if named:
        return RulesPath(Path(named), "environment", _is_bundled(Path(named)))
    if HERE.is_file():
        if is_rules_file(HERE):
            return RulesPath(HERE, "here", _is_bundled(HERE))
        if warn is not None:
            warn(
                f"{HERE} in the working directory is not a modetable rules file (not a YAML "
                "mapping with the keys format and product): skipped, the bundled rules are read"
            )
    return RulesPath(bundled_rules_path(), "bundled", True)


def is_rules_file(path: Path) -> bool:
    """Whether the file at `path` is a modetable rules file: YAML whose (first)
    document is a mapping holding the top-level keys `format` and `product`,
    which modetable's format requires, wherever an edit moved them.

    Read as YAML events from the start, never built: a rules file is known as
    soon as both keys are met (line 16 of the bundled copy), another file once
    its top-level mapping ends, or at the first thing that is not YAML. A file
    that cannot be read, or is over the input limit, counts as one, so that the
    loader says what is wrong with it."""
    import yaml  # only when ./rules/modes.yaml is there

    from modetable.parsing.yamlio import MAX_INPUT_BYTES

    try:
        with path.open("rb") as stream:
            if os.fstat(stream.fileno()).st_size > MAX_INPUT_BYTES:
                return True
            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            return _holds_own_keys(yaml.parse(stream, Loader=loader))
    except OSError:
        return True
    except yaml.YAMLError:
        return False


def _holds_own_keys(events: Iterator[object]) -> bool:
    """Whether the first document of a YAML event stream is a mapping holding
    every key of `_OWN_KEYS` at its top level (read only as far as needed)."""
    import yaml

    depth = 0  # collections open; the top-level mapping is depth 1
    at_key = True  # the next node at depth 1 is a key
    seen: set[str] = set()
    for event in events:
        if isinstance(event, yaml.CollectionStartEvent):
            if depth == 0 and not isinstance(event, yaml.MappingStartEvent):
                return False
            depth += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            if depth == 0:
                return False  # the top-level mapping ended without them
            if depth == 1:
                at_key = not at_key
        elif isinstance(event, yaml.ScalarEvent | yaml.AliasEvent):
            if depth == 0:
                return False
            if depth == 1:
                if at_key and isinstance(event, yaml.ScalarEvent) and event.value in _OWN_KEYS:
                    seen.add(event.value)
                    if seen == _OWN_KEYS:
                        return True
                at_key = not at_key
        elif isinstance(event, yaml.DocumentEndEvent | yaml.StreamEndEvent):
            return False
    return False


def asked_version() -> str | None:
    """The OME version $MODETABLE_OME_VERSION asks for, if any."""
    return os.environ.get(VERSION_VARIABLE) or None


def bundled_rules_path() -> Path:
    """The rules file shipped with the package, or the repository's own."""
    package = Path(__file__).resolve().parents[1]
    # A wheel installs the copy as a file beside the code; importlib.resources
    # (slower to import) only for a package that is not on the file system.
    packaged = package.joinpath(*BUNDLED_PARTS)
    if packaged.is_file():
        return packaged
    repository = package.parents[1] / "rules" / "modes.yaml"
    if repository.is_file():
        return repository
    from importlib import resources

    inside = resources.files("modetable").joinpath(*BUNDLED_PARTS)
    if inside.is_file():
        return Path(str(inside))
    raise ModetableError("the bundled rules file is missing; pass --rules FILE")


def read_rules_bytes(path: Path) -> bytes:
    """The rules file's bytes, read within the byte limit every input has (a
    FIFO or /dev/zero too), or a one-line error naming it."""
    from modetable.parsing.yamlio import read_file

    return read_file(path, str(path))


def holds_bundled_rules(data: bytes) -> bool:
    """Whether `data` are the bundled rules, byte for byte: a clone's
    ./rules/modes.yaml, when modetable was installed from that clone, is the
    bundled rules in another place, and nothing in it needs saying."""
    try:
        bundled = bundled_rules_path()
        return bundled.stat().st_size == len(data) and bundled.read_bytes() == data
    except (OSError, ModetableError):
        return False


def _is_bundled(path: Path) -> bool:
    """Whether `path` is the bundled copy itself (as ./rules/modes.yaml is in a
    checkout that modetable runs from)."""
    try:
        return path.resolve() == bundled_rules_path().resolve()
    except (OSError, RuntimeError, ModetableError):  # RuntimeError: a symbolic link loop
        return False
