"""Safe, position-aware YAML loading, with limits.

Every mapping and sequence remembers the file, line and column it came from,
so any later error can name its place. Only the JSON-compatible part of YAML
is accepted (mappings, lists, strings, numbers, booleans, null), as Kubernetes
reads it; nothing is ever constructed from a tag. Duplicate keys are errors
(PyYAML keeps the last one silently). Every input is bounded: its bytes, the
nodes it builds (merge keys `<<` can build quadratically many), the nodes its
aliases add (a "billion laughs" file; counted for the whole run, not per input),
its depth and the length of its numbers, each a one-line error rather than an
exhausted machine (docs/limits.md lists them).

The loader's contract, what any loader of modetable's inputs must refuse (a
faster parse path is held to the same, tests/test_loader_contract.py):

- more bytes than the limit; text that is not UTF-8; control characters;
- a tag beyond JSON's values, and a JSON tag that does not fit its node
  (`!!float abc`, `!!map` on a list, `!!seq` on a mapping);
- a number written with more characters than the limit; NaN or an infinity
  (`.nan`, `-.inf`), which no JSON, and so no Kubernetes object, holds;
- a string that is not valid Unicode (a lone surrogate written as an escape);
- a key twice in one mapping; a list or mapping as a key;
- nesting past the depth limit, as written or through aliases; an alias
  inside the node it names;
- more nodes built from one input, or added by aliases in one run, than the limits.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import math
import os
import stat
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

import yaml

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.text.shown import quote, shorten

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_INPUT_BYTES",
    "MAX_NODES",
    "MAX_NUMBER_CHARS",
    "AliasBudget",
    "YamlList",
    "YamlMap",
    "charge_again",
    "charges_recorded",
    "check_size",
    "decode",
    "describe",
    "duplicate_key_message",
    "item_position",
    "key_position",
    "load_documents",
    "non_finite",
    "one_run",
    "path_problem",
    "read_file",
    "read_limited",
    "text_location",
    "where",
]

# Limits (docs/limits.md). A real manifest averages ~23 bytes per node, so an
# input at the byte limit holds about 1.5 million nodes; the node limit sits
# above that and only stops inputs that build far more than they spell out.
MAX_INPUT_BYTES = 32 * 1024 * 1024
MAX_NODES = 4_000_000
# Nodes that aliases add beyond those written, for all the inputs of one run
# together: every walk over the objects read is bounded by what the inputs
# spell out plus this many.
MAX_ALIAS_NODES = 1_000_000
MAX_DEPTH = 200
# Characters a number may be written with: int64 and float64 need at most 25.
MAX_NUMBER_CHARS = 100
_CHUNK = 1024 * 1024
_SELF_ALIAS = "YAML alias refers to a node that holds it"

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_YAML_TAG = "tag:yaml.org,2002:"
_MERGE_TAG = _YAML_TAG + "merge"
# Tags PyYAML's safe loader knows but JSON (and so Kubernetes) has no value for.
_REFUSED_TAGS = tuple(_YAML_TAG + name for name in ("binary", "set", "omap", "pairs"))
_INT, _FLOAT, _STR = _YAML_TAG + "int", _YAML_TAG + "float", _YAML_TAG + "str"
# What a scalar's text must read as, unquoted, to carry a tag: a whole number
# may be written as a float (`!!float 1`), as YAML and Kubernetes allow.
_SCALAR_FITS = {
    _INT: {_INT},
    _FLOAT: {_FLOAT, _INT},
    _YAML_TAG + "bool": {_YAML_TAG + "bool"},
    _YAML_TAG + "null": {_YAML_TAG + "null"},
}
_NODE_KINDS = {
    yaml.MappingNode: "a mapping",
    yaml.SequenceNode: "a list",
    yaml.ScalarNode: "a scalar",
}

# Positions are packed into one int each (line in the high bits), which keeps
# a loaded manifest about a third the size tuples would make it.
_SHIFT = 32
_MASK = (1 << _SHIFT) - 1


def _pack(line: int, col: int) -> int:
    return line << _SHIFT | col


def _unpack(packed: int) -> tuple[int, int]:
    return packed >> _SHIFT, packed & _MASK


def item_position(at: tuple[int, int]) -> int:
    """A list item's (line, column) as a YamlList keeps it (for other loaders)."""
    return _pack(*at)


def key_position(key: tuple[int, int], value: tuple[int, int]) -> int:
    """A key's and its value's (line, column) as a YamlMap keeps them."""
    return _pack(*key) << 2 * _SHIFT | _pack(*value)


class YamlMap(dict):
    """A mapping that remembers where it and each of its keys and values stood."""

    __slots__ = ("_positions", "col", "file", "line")

    def where(self, key: Any = None) -> Location:
        """The location of the value under `key`, or of the mapping itself."""
        packed = self._positions.get(key) if key is not None else None
        if packed is None:
            return Location(self.file, self.line, self.col)
        return Location(self.file, *_unpack(packed & ((1 << 2 * _SHIFT) - 1)))

    def key_where(self, key: Any) -> Location:
        """The location of `key` itself, or of the mapping when it has no such key."""
        packed = self._positions.get(key)
        if packed is None:
            return Location(self.file, self.line, self.col)
        return Location(self.file, *_unpack(packed >> 2 * _SHIFT))


class YamlList(list):
    """A sequence that remembers where it and each of its items stood."""

    __slots__ = ("_positions", "col", "file", "line")

    def where(self, index: int | None = None) -> Location:
        if index is None or not 0 <= index < len(self._positions):
            return Location(self.file, self.line, self.col)
        return Location(self.file, *_unpack(self._positions[index]))


def where(node: Any, key: Any = None, fallback: Location | None = None) -> Location:
    """The location of `node[key]` (or of `node`) when the node knows it."""
    if isinstance(node, YamlMap | YamlList):
        return node.where(key)
    return fallback if fallback is not None else Location("<input>")


def non_finite(shown: str) -> str:
    """The error for NaN or an infinity (`shown`: `the number nan`), which no
    JSON, and so no Kubernetes object, holds."""
    return f"{shown} is not a JSON value: JSON, and so Kubernetes, has no NaN or infinity"


def describe(value: Any) -> str:
    """A YAML value as an error message names it: `a list`, `the number 1`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {shorten(str(value))}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    return f"a {type(value).__name__}"


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _tag_name(tag: str) -> str:
    return "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag


def duplicate_key_message(key_node: yaml.ScalarNode, first_line: int) -> str:
    """A key given twice, as it is written (`yes` and `true` are one key)."""
    return f"duplicate key {quote(key_node.value)} (first at line {first_line})"


class _PositionLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """A safe loader whose mappings and sequences carry their positions, and
    which counts the nodes it builds."""

    file_name = "<input>"
    built = 0
    depth = 0
    budget: AliasBudget  # the run's: merge keys (`<<`) spend it as aliases do

    def _refuse(
        self, message: str, node: yaml.Node, code: str = ErrorCode.BAD_INPUT
    ) -> ModetableError:
        return ModetableError(message, Location(self.file_name, *_mark(node)), code=code)

    def _expect(self, node: yaml.Node, kind: type[yaml.Node]) -> None:
        """An explicit tag on a node of another kind (`!!map [1]`, `!!int {}`)."""
        if not isinstance(node, kind):
            raise self._refuse(
                f"the YAML tag {_tag_name(node.tag)} needs {_NODE_KINDS[kind]}, "
                f"not {_NODE_KINDS[type(node)]}",
                node,
                ErrorCode.BAD_TAG,
            )

    def _scalar(self, node: yaml.Node) -> str:
        """The text of a scalar whose tag fits it (`!!float abc`, `!!bool maybe` do not)."""
        self._expect(node, yaml.ScalarNode)
        fits = _SCALAR_FITS.get(node.tag)
        if fits is not None:
            if self.resolve(yaml.ScalarNode, node.value, (True, False)) not in fits:
                raise self._refuse(
                    f"{quote(node.value)} is not a {_tag_name(node.tag)}", node, ErrorCode.BAD_TAG
                )
            if node.tag in (_INT, _FLOAT) and len(node.value) > MAX_NUMBER_CHARS:
                raise self._refuse(
                    f"a number of {len(node.value)} characters is longer than the limit of "
                    f"{MAX_NUMBER_CHARS}; quote it to make it a string",
                    node,
                    ErrorCode.OVER_LIMIT,
                )
        return node.value

    def _deeper(self, node: yaml.Node) -> None:
        """One level deeper, to build the children of `node` (the caller steps
        back up when they are built: a plain call, not a context manager, as it
        runs for every mapping and list)."""
        if self.depth >= MAX_DEPTH:
            raise ModetableError(
                f"YAML nested deeper than the limit of {MAX_DEPTH}",
                Location(self.file_name, *_mark(node)),
                code=ErrorCode.OVER_LIMIT,
            )
        self.depth += 1

    def _charge(self, count: int, node: yaml.Node) -> None:
        """Count `count` more nodes built; refuse the input past the limit."""
        self.built += count
        if self.built > MAX_NODES:
            raise ModetableError(
                f"YAML builds more than {MAX_NODES} nodes "
                "(a file this large, or merge keys (<<) repeated too often)",
                Location(self.file_name, *_mark(node)),
                code=ErrorCode.OVER_LIMIT,
            )

    def construct_yaml_map(self, node: yaml.MappingNode) -> Iterator[YamlMap]:
        self._expect(node, yaml.MappingNode)
        mapping = YamlMap()
        mapping.file = self.file_name
        mapping.line, mapping.col = _mark(node)
        positions: dict[Any, int] = {}
        mapping._positions = positions
        yield mapping
        self._check_duplicates(node)
        written = len(node.value)
        self.flatten_mapping(node)
        if len(node.value) > written:
            # The pairs merge keys copied in: an alias's expansion by another
            # name, charged to the run's budget so that many files cannot each
            # build up to the node limit.
            self.budget.charge(len(node.value) - written, Location(self.file_name, *_mark(node)))
        self._charge(len(node.value) + 1, node)
        self._deeper(node)
        try:
            for key_node, value_node in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    hash(key)
                except TypeError:
                    raise ModetableError(
                        "a mapping key must be a string, not a list or mapping",
                        Location(self.file_name, *_mark(key_node)),
                    ) from None
                mapping[key] = self.construct_object(value_node, deep=True)
                # _pack(key's mark) << 2 * _SHIFT | _pack(value's mark), inline
                # (once per key of every input).
                at, to = key_node.start_mark, value_node.start_mark
                positions[key] = (
                    (at.line + 1) << 3 * _SHIFT
                    | (at.column + 1) << 2 * _SHIFT
                    | (to.line + 1) << _SHIFT
                    | (to.column + 1)
                )
        finally:
            self.depth -= 1

    def _check_duplicates(self, node: yaml.MappingNode) -> None:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG or not isinstance(key_node, yaml.ScalarNode):
                continue
            # A string key is its text (construct_str checks only what an escape
            # in double quotes can spell, so those are constructed).
            plain = key_node.tag == _STR and (key_node.style != '"' or key_node.value.isascii())
            key = key_node.value if plain else self.construct_object(key_node)
            if key in seen:
                raise self._refuse(
                    duplicate_key_message(key_node, seen[key]), key_node, ErrorCode.DUPLICATE_KEY
                )
            seen[key] = _mark(key_node)[0]

    def construct_yaml_seq(self, node: yaml.SequenceNode) -> Iterator[YamlList]:
        self._expect(node, yaml.SequenceNode)
        items = YamlList()
        items.file = self.file_name
        items.line, items.col = _mark(node)
        items._positions = [_pack(*_mark(child)) for child in node.value]
        yield items
        self._charge(len(node.value) + 1, node)
        self._deeper(node)
        try:
            items.extend(self.construct_object(child, deep=True) for child in node.value)
        finally:
            self.depth -= 1

    def construct_str(self, node: yaml.Node) -> str:
        value = self._scalar(node)
        if node.style == '"' and not value.isascii():
            # Only an escape (`"\ud800"`) can spell a lone surrogate: no UTF-8 holds it.
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise self._refuse(
                    f"the string holds U+{ord(value[exc.start]):04X}, which is not a character "
                    "(a lone surrogate)",
                    node,
                ) from None
        return value

    def construct_int(self, node: yaml.Node) -> int:
        self._scalar(node)
        return super().construct_yaml_int(node)

    def construct_float(self, node: yaml.Node) -> float:
        self._scalar(node)
        if self.resolve(yaml.ScalarNode, node.value, (True, False)) == _INT:
            return float(super().construct_yaml_int(node))
        value = super().construct_yaml_float(node)
        if not math.isfinite(value):
            # `.nan`, `.inf`: kubectl's conversion to JSON refuses them.
            raise self._refuse(non_finite(f"the number {node.value}"), node)
        return value

    def construct_bool(self, node: yaml.Node) -> bool:
        self._scalar(node)
        return super().construct_yaml_bool(node)

    def construct_null(self, node: yaml.Node) -> None:
        self._scalar(node)

    def construct_refused(self, node: yaml.Node) -> None:
        """Any tag beyond JSON's values: nothing is ever constructed from a tag."""
        raise self._refuse(
            f"the YAML tag {_tag_name(node.tag)} is not supported: modetable reads only "
            "mappings, lists, strings, numbers, booleans and null",
            node,
            ErrorCode.BAD_TAG,
        )


_PositionLoader.add_constructor("tag:yaml.org,2002:map", _PositionLoader.construct_yaml_map)
_PositionLoader.add_constructor("tag:yaml.org,2002:seq", _PositionLoader.construct_yaml_seq)
_PositionLoader.add_constructor(_INT, _PositionLoader.construct_int)
_PositionLoader.add_constructor(_FLOAT, _PositionLoader.construct_float)
_PositionLoader.add_constructor("tag:yaml.org,2002:bool", _PositionLoader.construct_bool)
_PositionLoader.add_constructor("tag:yaml.org,2002:null", _PositionLoader.construct_null)
_PositionLoader.add_constructor("tag:yaml.org,2002:str", _PositionLoader.construct_str)
# Kubernetes decodes YAML through JSON, so dates stay strings; so do a plain `=`
# and a `<<` that is not a merge key, which YAML 1.1 tags as `!!value` and `!!merge`.
for _tag in ("timestamp", "value", "merge"):
    _PositionLoader.add_constructor(_YAML_TAG + _tag, _PositionLoader.construct_str)
for _tag in _REFUSED_TAGS:
    _PositionLoader.add_constructor(_tag, _PositionLoader.construct_refused)
_PositionLoader.add_constructor(None, _PositionLoader.construct_refused)


def check_size(size: int, file_name: str) -> None:
    """Refuse an input of `size` bytes when it is over the limit."""
    if size > MAX_INPUT_BYTES:
        raise ModetableError(
            f"input is {size} bytes, more than the limit of {MAX_INPUT_BYTES} bytes "
            "(split it into several files)",
            Location(file_name),
            code=ErrorCode.OVER_LIMIT,
        )


def path_problem(path: str | os.PathLike[str]) -> str | None:
    """Why `path` cannot be opened, in the words the error messages use, or None."""
    try:
        os.stat(path)
    except FileNotFoundError:
        closed = _closed_descriptor(path)
        if closed is not None:
            return closed
        return "a broken symbolic link" if os.path.islink(path) else "no such file or directory"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop"
        return f"cannot read: {exc.strerror or exc}"
    return None


def _closed_descriptor(path: str | os.PathLike[str]) -> str | None:
    """Why a path to one of this process's descriptors (`/dev/stdin`,
    `/dev/fd/N`, `/proc/self/fd/N`) names nothing: the descriptor is closed
    (`<&-` in a shell), which the dangling link would otherwise be taken for."""
    parts = os.path.realpath(path).split(os.sep)
    if len(parts) != 5 or parts[:2] != ["", "proc"] or parts[3] != "fd":
        return None
    if parts[2] not in ("self", str(os.getpid())) or not parts[4].isdigit():
        return None
    descriptor = int(parts[4])
    if descriptor == 0:
        return "cannot read: standard input is closed"
    return f"cannot read: file descriptor {descriptor} is closed"


def _unreadable(exc: OSError, file_name: str) -> ModetableError:
    return ModetableError(
        f"cannot read: {exc.strerror or exc}", Location(file_name), code=ErrorCode.CANNOT_READ
    )


def read_file(path: str | os.PathLike[str], file_name: str) -> bytes:
    """The bytes of the file at `path`, within the byte limit.

    A regular file over the limit is refused by its size before it is read.
    Anything else named (a FIFO, a device such as /dev/zero, a process
    substitution) is read up to the limit and refused past it; a FIFO is opened
    without waiting for a writer, and one with no writer reads as empty.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        problem = path_problem(path) or f"cannot read: {exc.strerror or exc}"
        raise ModetableError(problem, Location(file_name), code=ErrorCode.CANNOT_READ) from None
    try:
        with os.fdopen(fd, "rb") as stream:
            status = os.fstat(fd)
            if stat.S_ISDIR(status.st_mode):
                raise ModetableError(
                    "cannot read: Is a directory", Location(file_name), code=ErrorCode.CANNOT_READ
                )
            os.set_blocking(fd, True)
            if stat.S_ISREG(status.st_mode):
                check_size(status.st_size, file_name)
                data = stream.read(status.st_size + 1)  # it may have grown since
                check_size(len(data), file_name)
                return data
            return read_limited(stream, file_name)
    except OSError as exc:
        raise _unreadable(exc, file_name) from None


def read_limited(stream: BinaryIO, file_name: str) -> bytes:
    """A stream's bytes, refused once they pass the limit (pipes have no size).

    Read a chunk at a time, so memory grows with what arrives, not with the limit.
    """
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= MAX_INPUT_BYTES:
            chunk = stream.read(min(_CHUNK, MAX_INPUT_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise _unreadable(exc, file_name) from None
    data = b"".join(chunks)
    if len(data) > MAX_INPUT_BYTES:
        raise ModetableError(
            f"input is more than the limit of {MAX_INPUT_BYTES} bytes "
            "(split it into several files)",
            Location(file_name),
            code=ErrorCode.OVER_LIMIT,
        )
    return data


# Byte-order marks of encodings other than UTF-8, longest first (UTF-32 LE
# begins with UTF-16 LE's mark).
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
# What YAML counts as a line break (a lone \r too, and \r\n as one).
_BREAKS = frozenset("\n\r\x85\u2028\u2029")


def text_location(before: str, file_name: str) -> Location:
    """The place just after `before`, the text that precedes it, as YAML counts
    lines and columns (characters, not bytes)."""
    line, start = 1, 0
    for index, char in enumerate(before):
        if char in _BREAKS and not (char == "\r" and before[index + 1 : index + 2] == "\n"):
            line, start = line + 1, index + 1
    return Location(file_name, line, len(before) - start + 1)


def decode(data: bytes, file_name: str) -> str:
    """UTF-8 text of `data`, or an error naming the first bad byte's place."""
    check_size(len(data), file_name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8-sig")
        encoding = next((name for bom, name in _BOMS if data.startswith(bom)), None)
        hint = f" (the file is {encoding}; save it as UTF-8)" if encoding else ""
        raise ModetableError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded{hint}",
            text_location(before, file_name),
        ) from None


class AliasBudget:
    """The nodes aliases may still add in this run (MAX_ALIAS_NODES for all
    inputs together: a limit per input would let many inputs multiply it)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_ALIAS_NODES if limit is None else limit
        self.left = self.limit

    def charge(self, count: int, where: Location) -> None:
        recording = _RECORDING.get()
        if recording is not None:
            recording.append((count, where))
        self.left -= count
        if self.left < 0:
            raise ModetableError(
                f"YAML aliases add more than {self.limit} nodes in all inputs together "
                "(aliases repeated too often)",
                where,
                code=ErrorCode.OVER_LIMIT,
            )


_RUN_BUDGET: contextvars.ContextVar[AliasBudget | None] = contextvars.ContextVar(
    "alias_budget", default=None
)
_RECORDING: contextvars.ContextVar[list[tuple[int, Location]] | None] = contextvars.ContextVar(
    "alias_charges", default=None
)


@contextlib.contextmanager
def one_run() -> Iterator[AliasBudget]:
    """One budget of alias nodes for every input loaded inside (a command's run,
    an API call's load); inside another run, that run's budget. Outside any run,
    each call of load_documents has its own."""
    current = _RUN_BUDGET.get()
    if current is not None:
        yield current
        return
    budget = AliasBudget()
    token = _RUN_BUDGET.set(budget)
    try:
        yield budget
    finally:
        _RUN_BUDGET.reset(token)


@contextlib.contextmanager
def charges_recorded() -> Iterator[list[tuple[int, Location]]]:
    """Every charge made to an alias budget inside, in order, with its place: the
    rules cache keeps those of loading the rules file, to make them again when it
    serves the file (`charge_again`), so a run spends the same either way."""
    recorded: list[tuple[int, Location]] = []
    token = _RECORDING.set(recorded)
    try:
        yield recorded
    finally:
        _RECORDING.reset(token)


def charge_again(charges: Iterable[tuple[int, Location]]) -> None:
    """Make `charges` (as `charges_recorded` gave them) to the run's budget, as
    loading the input they were recorded from would: past the budget, the same
    error at the same place. Outside a run, to a budget of their own, as
    `load_documents` would."""
    budget = _RUN_BUDGET.get() or AliasBudget()
    for count, where in charges:
        budget.charge(count, where)


def load_documents(text: str, file_name: str) -> list[tuple[Any, Location]]:
    """Every YAML document in `text`, each with where it begins.

    Empty documents (a lone `---`) are dropped.
    """
    budget = _RUN_BUDGET.get() or AliasBudget()
    # Without an alias (`*name`) no node is shared: nothing is added beyond what
    # is written, and the depth was counted while building, so the walk that
    # measures expansion has nothing to find.
    aliased = "*" in text
    loader = _PositionLoader(text)
    loader.file_name = file_name
    loader.budget = budget
    documents: list[tuple[Any, Location]] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            start = Location(file_name, *_mark(node))
            value = loader.construct_document(node)
            if value is None:
                continue
            if aliased:
                _check_expansion(value, start, budget)
            documents.append((value, start))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        where = Location(file_name, mark.line + 1, mark.column + 1) if mark else Location(file_name)
        if problem == "found unconstructable recursive node":
            raise ModetableError(_SELF_ALIAS, where) from None
        raise ModetableError(f"invalid YAML: {_one_line(problem)}", where) from None
    except yaml.reader.ReaderError as exc:
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ModetableError(
            f"invalid YAML: the control character U+{code:04X} is not allowed",
            text_location(text[: exc.position], file_name),
        ) from None
    except yaml.YAMLError as exc:
        raise ModetableError(f"invalid YAML: {_one_line(str(exc))}", Location(file_name)) from None
    except RecursionError:
        raise ModetableError(
            f"YAML nested deeper than the limit of {MAX_DEPTH}",
            Location(file_name),
            code=ErrorCode.OVER_LIMIT,
        ) from None
    finally:
        loader.dispose()
    return documents


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _check_expansion(value: Any, start: Location, budget: AliasBudget) -> None:
    """Charge the nodes the document's aliases add to the run's budget, and refuse
    a document nested too deep through them.

    Each node's size and height are memoised by identity, so a shared (aliased)
    node costs one visit however often it is referenced, and its height still
    counts at every depth it is referenced from. What aliases add is the size
    with every reference expanded less the nodes written once.
    """
    known: dict[int, tuple[int, int]] = {}
    active: set[int] = set()
    written = 0

    def measure(node: Any, depth: int) -> tuple[int, int]:
        """(nodes, height) of `node`, reached at `depth`."""
        nonlocal written
        if not isinstance(node, dict | list):
            return 1, 0
        key = id(node)
        found = known.get(key)
        if found is None:
            if key in active:
                raise ModetableError(_SELF_ALIAS, start)
            active.add(key)
            total, height = 1, 0
            written += 1
            for child in node.values() if isinstance(node, dict) else node:
                if not isinstance(child, dict | list):
                    written += 1
                size, below = measure(child, depth + 1)
                total += size
                height = max(height, below + 1)
            active.discard(key)
            found = known[key] = (total, height)
        if depth + found[1] > MAX_DEPTH:
            raise ModetableError(
                f"YAML nested deeper than the limit of {MAX_DEPTH}",
                start,
                code=ErrorCode.OVER_LIMIT,
            )
        return found

    total = measure(value, 0)[0]
    budget.charge(total - max(written, 1), start)
