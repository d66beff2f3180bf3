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
import gc
import math
import operator
import os
import stat
from collections.abc import Callable, Iterable, Iterator
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
    "collector_paused",
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
_MERGE_TAG, _VALUE = _YAML_TAG + "merge", _YAML_TAG + "value"
_INT, _FLOAT = _YAML_TAG + "int", _YAML_TAG + "float"
_BOOL, _NULL = _YAML_TAG + "bool", _YAML_TAG + "null"
# The resolver's own objects: a tag the parser resolved is the same object, so
# a tag is mostly told from them by identity alone.
_STR = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
_SEQ = yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG
_MAP = yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG
# Kubernetes decodes YAML through JSON, so dates stay strings; so do a plain `=`
# and a `<<` that is not a merge key, which YAML 1.1 tags as `!!value` and `!!merge`.
_STRINGS = frozenset((_STR, _YAML_TAG + "timestamp", _VALUE, _MERGE_TAG))
# What a scalar's text must read as, unquoted, to carry a tag: a whole number
# may be written as a float (`!!float 1`), as YAML and Kubernetes allow.
_SCALAR_FITS = {_INT: {_INT}, _FLOAT: {_FLOAT, _INT}, _BOOL: {_BOOL}, _NULL: {_NULL}}
# The composer asks the loader to resolve every node's tag, a call into
# Python for each; BaseResolver.resolve's own lookup (the resolvers of the
# value's first character, then the wildcard ones, concatenated anew each
# call) is the same, here concatenated once.
_IMPLICIT = _BaseLoader.yaml_implicit_resolvers
_WILDCARD = tuple(_IMPLICIT.get(None, ()))
_RESOLVERS = {
    first: (*found, *_WILDCARD) for first, found in _IMPLICIT.items() if first is not None
}


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """The safe loader, its resolver's calls made cheaper, answering the same."""

    # The path resolvers' bookkeeping, which the composer calls around every
    # node: the safe loader has no path resolvers (tests/test_yamlio.py), so these do
    # nothing, and a builtin taking their arguments costs less than
    # BaseResolver's methods, which return at once.
    descend_resolver = staticmethod(operator.is_)
    ascend_resolver = staticmethod(tuple)

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        """The tag of a node written without one, as BaseResolver.resolve gives it."""
        if kind is _SCALAR:
            if implicit[0]:
                for tag, regexp in _RESOLVERS.get(value[:1], _WILDCARD):
                    if regexp.match(value):
                        return tag
            return _STR
        return _SEQ if kind is _SEQUENCE else _MAP


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


# The reader walks the nodes PyYAML's C parser composes and builds each value
# itself: PyYAML's generic construction (a generator and a constructor lookup
# per node, every node kept twice by identity) cost more than the C parse. It
# builds what PyYAML's safe loader with these rules built, in the same order,
# so each error, and which of two wins, is the same.
_SCALAR, _SEQUENCE, _MAPPING = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
_BOOLEANS = yaml.constructor.SafeConstructor.bool_values
_UNBUILT = object()  # a key not built yet (not a scalar, or merge keys moved it)
# Marks count from 0, positions from 1: what packing adds to a key's and its
# value's packed marks (key_position), and to a list item's (item_position).
_ONES = 1 << 3 * _SHIFT | 1 << 2 * _SHIFT | 1 << _SHIFT | 1
_ONES_ITEM = 1 << _SHIFT | 1


def _reader(
    loader: Any, file_name: str, budget: AliasBudget, aliased: bool, tagged: bool
) -> Callable[[yaml.Node], tuple[Any, bool]]:
    """What builds the documents of one input from their composed nodes: each
    document's value, and whether a mapping or list in it was met twice (only
    then can aliases add nodes or depth, for _check_expansion to measure).

    `aliased`: the text holds a `*`; without an alias no node is met twice,
    and nothing is memoised. `tagged`: the text holds a `!`; without one, every
    tag is the one the parser resolved from the text, which then fits it, and
    the text is not resolved again. The nodes built are counted across the
    input's documents; the limits are read as they stand (tests lower them).
    """
    max_depth, max_nodes, max_chars = MAX_DEPTH, MAX_NODES, MAX_NUMBER_CHARS
    resolve = loader.resolve
    memo: dict[int, Any] = {}  # id(node): its value, in an aliased input
    active: set[int] = set()  # the mappings and lists being built, but the root
    built = 0
    shared = False

    def at(node: yaml.Node) -> Location:
        return Location(file_name, *_mark(node))

    def wrong_kind(node: yaml.Node, kind: type[yaml.Node]) -> ModetableError:
        """An explicit tag on a node of another kind (`!!map [1]`, `!!int {}`)."""
        return ModetableError(
            f"the YAML tag {_tag_name(node.tag)} needs {_NODE_KINDS[kind]}, "
            f"not {_NODE_KINDS[type(node)]}",
            at(node),
            code=ErrorCode.BAD_TAG,
        )

    def build(node: yaml.Node, level: int) -> Any:
        """The value of `node`, inside `level` mappings and lists."""
        nonlocal shared
        if aliased:
            found = memo.get(id(node), _UNBUILT)
            if found is not _UNBUILT:
                if type(node) is not _SCALAR:
                    shared = True
                return found
            if id(node) in active:
                raise ModetableError(_SELF_ALIAS, at(node))
        tag = node.tag
        if tag == _MAP:
            return mapping(node, level)
        if tag == _SEQ:
            return sequence(node, level)
        value = scalar(node)
        if aliased:
            memo[id(node)] = value
        return value

    def text(node: yaml.Node) -> str:
        if type(node) is not _SCALAR:
            raise wrong_kind(node, _SCALAR)
        value = node.value
        if node.style == '"' and not value.isascii():
            # Only an escape (`"\ud800"`) can spell a lone surrogate: no UTF-8 holds it.
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ModetableError(
                    f"the string holds U+{ord(value[exc.start]):04X}, which is not a character "
                    "(a lone surrogate)",
                    at(node),
                ) from None
        return value

    def fitting(node: yaml.Node) -> str:
        """The text of a scalar whose tag fits it (`!!float abc`, `!!bool maybe` do not)."""
        if type(node) is not _SCALAR:
            raise wrong_kind(node, _SCALAR)
        value, tag = node.value, node.tag
        if tagged and resolve(_SCALAR, value, (True, False)) not in _SCALAR_FITS[tag]:
            raise ModetableError(
                f"{quote(value)} is not a {_tag_name(tag)}", at(node), code=ErrorCode.BAD_TAG
            )
        if tag in (_INT, _FLOAT) and len(value) > max_chars:
            raise ModetableError(
                f"a number of {len(value)} characters is longer than the limit of "
                f"{max_chars}; quote it to make it a string",
                at(node),
                code=ErrorCode.OVER_LIMIT,
            )
        return value

    def scalar(node: yaml.Node) -> Any:
        """The value of a node tagged neither a mapping nor a list."""
        tag = node.tag
        if tag in _STRINGS:
            return text(node)
        if tag == _INT:
            value = fitting(node)
            if value.isdigit() and value.isascii() and value[0] != "0":
                return int(value)  # decimal digits: what YAML 1.1's rules make of them
            return loader.construct_yaml_int(node)
        if tag == _FLOAT:
            value = fitting(node)
            if tagged and resolve(_SCALAR, value, (True, False)) == _INT:
                return float(loader.construct_yaml_int(node))
            number = loader.construct_yaml_float(node)
            if not math.isfinite(number):
                # `.nan`, `.inf`: kubectl's conversion to JSON refuses them.
                raise ModetableError(non_finite(f"the number {value}"), at(node))
            return number
        if tag == _BOOL:
            return _BOOLEANS[fitting(node).lower()]
        if tag == _NULL:
            fitting(node)
            return None
        # Any tag beyond JSON's values: nothing is ever constructed from a tag.
        raise ModetableError(
            f"the YAML tag {_tag_name(tag)} is not supported: modetable reads only "
            "mappings, lists, strings, numbers, booleans and null",
            at(node),
            code=ErrorCode.BAD_TAG,
        )

    def begin(node: yaml.Node, value: Any, level: int) -> None:
        """An aliased input's mapping or list begun: the root is its own value at
        once (as PyYAML had it: an alias inside it is the expansion walk's to
        refuse); any other is being built until it is done."""
        if level:
            active.add(id(node))
        else:
            memo[id(node)] = value

    def past_limits(node: yaml.Node) -> ModetableError:
        """Past the node limit, or (else) nesting past the depth limit."""
        if built > max_nodes:
            return ModetableError(
                f"YAML builds more than {max_nodes} nodes "
                "(a file this large, or merge keys (<<) repeated too often)",
                at(node),
                code=ErrorCode.OVER_LIMIT,
            )
        return ModetableError(
            f"YAML nested deeper than the limit of {max_depth}",
            at(node),
            code=ErrorCode.OVER_LIMIT,
        )

    def keys_of(node: yaml.MappingNode, level: int) -> list[Any]:
        """The keys of `node` as built (_UNBUILT where not a scalar), each
        refused when given twice, before any value is built; then its merge
        keys (and `!!value` keys) flattened."""
        seen: dict[Any, int] = {}
        keys = []
        flatten = False
        for key_node, _ in node.value:
            tag = key_node.tag
            if tag == _STR and type(key_node) is _SCALAR:
                # A string key is its text (text() checks only what an escape
                # in double quotes can spell).
                key = key_node.value
                if key_node.style == '"' and not key.isascii():
                    key = text(key_node)
            elif tag == _MERGE_TAG or type(key_node) is not _SCALAR:
                flatten = flatten or tag in (_MERGE_TAG, _VALUE)
                keys.append(_UNBUILT)
                continue
            else:
                flatten = flatten or tag == _VALUE
                key = build(key_node, level + 1)
            if key in seen:
                raise ModetableError(
                    duplicate_key_message(key_node, seen[key]),
                    at(key_node),
                    code=ErrorCode.DUPLICATE_KEY,
                )
            seen[key] = key_node.start_mark.line + 1
            keys.append(key)
        if not flatten:
            return keys
        written = len(node.value)
        # PyYAML's own: the merged pairs moved in, `!!value` keys made strings.
        loader.flatten_mapping(node)
        if len(node.value) > written:
            # The pairs merge keys copied in: an alias's expansion by another
            # name, charged to the run's budget so that many files cannot each
            # build up to the node limit.
            budget.charge(len(node.value) - written, at(node))
        return [_UNBUILT] * len(node.value)  # built again, in their new order

    def mapping(node: yaml.Node, level: int) -> YamlMap:
        nonlocal built
        if type(node) is not _MAPPING:
            raise wrong_kind(node, _MAPPING)
        result = YamlMap()
        result.file = file_name
        mark = node.start_mark
        result.line, result.col = mark.line + 1, mark.column + 1
        positions: dict[Any, int] = {}
        result._positions = positions
        if aliased:
            begin(node, result, level)
        pairs = node.value
        # Most mappings' keys are strings, each its text, none given twice:
        # those are taken here, any other mapping's by keys_of.
        keys = []
        for key_node, _ in pairs:
            if (
                key_node.tag is _STR
                and type(key_node) is _SCALAR
                and (key_node.style != '"' or key_node.value.isascii())
            ):
                keys.append(key_node.value)
            else:
                break
        if len(keys) < len(pairs) or len(set(keys)) < len(keys):
            keys = keys_of(node, level)
            pairs = node.value
        built += len(pairs) + 1
        if built > max_nodes or level >= max_depth:
            raise past_limits(node)
        inner = level + 1
        for (key_node, value_node), key in zip(pairs, keys, strict=True):
            if key is _UNBUILT:
                key = build(key_node, inner)
                try:
                    hash(key)
                except TypeError:
                    raise ModetableError(
                        "a mapping key must be a string, not a list or mapping", at(key_node)
                    ) from None
            if value_node.tag is _STR and type(value_node) is _SCALAR:
                value = value_node.value
                if value_node.style == '"' and not value.isascii():
                    value = text(value_node)
            else:
                value = build(value_node, inner)
            result[key] = value
            # key_position(key's mark, value's mark), inline: once per key of every input.
            at_key, at_value = key_node.start_mark, value_node.start_mark
            positions[key] = (
                at_key.line << 3 * _SHIFT
                | at_key.column << 2 * _SHIFT
                | at_value.line << _SHIFT
                | at_value.column
            ) + _ONES
        if aliased and level:
            active.discard(id(node))
            memo[id(node)] = result
        return result

    def sequence(node: yaml.Node, level: int) -> YamlList:
        nonlocal built
        if type(node) is not _SEQUENCE:
            raise wrong_kind(node, _SEQUENCE)
        children = node.value
        result = YamlList()
        result.file = file_name
        mark = node.start_mark
        result.line, result.col = mark.line + 1, mark.column + 1
        result._positions = [
            (child.start_mark.line << _SHIFT | child.start_mark.column) + _ONES_ITEM
            for child in children
        ]
        if aliased:
            begin(node, result, level)
        built += len(children) + 1
        if built > max_nodes or level >= max_depth:
            raise past_limits(node)
        inner = level + 1
        append = result.append
        for child in children:
            if child.tag is _STR and type(child) is _SCALAR:
                value = child.value
                if child.style == '"' and not value.isascii():
                    value = text(child)
                append(value)
            else:
                append(build(child, inner))
        if aliased and level:
            active.discard(id(node))
            memo[id(node)] = result
        return result

    def document(node: yaml.Node) -> tuple[Any, bool]:
        nonlocal shared
        memo.clear()
        active.clear()
        shared = False
        value = build(node, 0)
        return value, shared

    return document


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


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic collector paused while inputs are built: their many
    objects (a tree of mappings and lists, what is made of it) make it run
    again and again, each time walking what the process holds already. What
    is built holds no cycle; what an error leaves is collected once it runs
    again. Inside another pause, that one's."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def load_documents(text: str, file_name: str) -> list[tuple[Any, Location]]:
    """Every YAML document in `text`, each with where it begins.

    Empty documents (a lone `---`) are dropped.
    """
    budget = _RUN_BUDGET.get() or AliasBudget()
    # Aliases (`*name`) add nodes and depth only where a mapping or list is met
    # twice; the walk measures those. In an aliased text without one, the walk
    # would charge 0 and refuse nothing: 0 is still charged, so that the charges
    # recorded (charges_recorded) stay what they were.
    aliased = "*" in text
    loader = _Loader(text)
    read = _reader(loader, file_name, budget, aliased, "!" in text)
    documents: list[tuple[Any, Location]] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            start = Location(file_name, *_mark(node))
            value, shared = read(node)
            if value is None:
                continue
            if shared:
                _check_expansion(value, start, budget)
            elif aliased:
                budget.charge(0, start)
            documents.append((value, start))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        where = Location(file_name, mark.line + 1, mark.column + 1) if mark else Location(file_name)
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
                if isinstance(child, dict | list):
                    size, below = measure(child, depth + 1)
                    total += size
                    height = max(height, below + 1)
                else:  # a scalar, (1, 0) as measure gives it, taken here without a call
                    written += 1
                    total += 1
                    height = max(height, 1)
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
