"""Which rules file to read: one lookup for every command and for the API.

A path given (`--rules FILE`), else the file `MODETABLE_RULES` names, else
`rules/modes.yaml` under the current directory when there is one (the file a
policy author edits in a clone), else the copy bundled with modetable.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import attrs

from modetable.errors import ModetableError

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


@attrs.frozen
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


def find_rules(path: str | Path | None = None) -> RulesPath:
    """The rules file to read: `path`, else $MODETABLE_RULES, else ./rules/modes.yaml
    when it exists, else the bundled copy (an empty variable counts as unset)."""
    if path is not None:
        return RulesPath(Path(path), "given", _is_bundled(Path(path)))
    named = os.environ.get(RULES_VARIABLE)
    if named:
        return RulesPath(Path(named), "environment", _is_bundled(Path(named)))
    if HERE.is_file():
        return RulesPath(HERE, "here", _is_bundled(HERE))
    return RulesPath(bundled_rules_path(), "bundled", True)


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
