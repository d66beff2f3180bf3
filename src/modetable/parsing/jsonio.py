"""JSON input (as `kubectl get -o json` writes it) read by the json module, with
the same result as yamlio: the same values, every mapping and list with the
same file, line and column, held to the same contract.

The json module parses in C, many times faster than YAML's loader, but keeps no
positions. They are found by one scan of the text for the tokens where values
and keys begin, paired in document order with the parsed tree, so every
position is the one yamlio would give. Whatever JSON and YAML could read apart,
or what yamlio refuses or limits, is not decided here: `load_json` answers None
and yamlio reads the text (so every error, and its place, is yamlio's own):

- text that does not begin with `{` or `[`, or is not one JSON value;
- tabs, carriage returns and YAML's other line breaks (NEL, U+2028, U+2029),
  which YAML counts or refuses differently, and characters YAML does not allow;
- a key twice in one mapping; `NaN` and `Infinity`; numbers with an exponent
  (YAML 1.1 reads `1e3` as a string) or longer than yamlio's limit; an escaped
  surrogate (`\\ud83d`, which libyaml refuses);
- nesting deeper, or more nodes, than yamlio's limits allow.

tests/test_jsonio.py holds it to yamlio: values and every position on the
synthetic fleet and the real catalog written as JSON, the loader's contract
written as JSON, and generated JSON.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Iterator
from typing import Any

from modetable.errors import Location
from modetable.parsing import yamlio
from modetable.parsing.yamlio import YamlList, YamlMap, item_position, key_position

__all__ = ["load_json", "looks_like_json"]

# A pattern compiled when first used, not when the module is imported (a cold
# start's cost: docs/performance.md).
_compiled = functools.cache(re.compile)

# Where a value or a key begins (structural characters other than `{` and `[`,
# and whitespace, are skipped): the tokens, in document order.
_STARTS = r'"(?:[^"\\]|\\.)*"|[{\[]|[-0-9][-+.0-9eE]*|true|false|null'
# What yamlio would read differently or refuse: tabs and line breaks YAML counts
# (or refuses) otherwise, characters outside YAML's printable set, escaped
# surrogates (libyaml refuses them; json joins pairs).
_UNLIKE_YAML = (
    "[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]"
    r"|\\u[dD][89a-fA-F]"
)


class _Unlike(Exception):
    """The text holds something yamlio reads differently or refuses."""


def looks_like_json(text: str) -> bool:
    """Whether `text` begins as a JSON object or array does."""
    return text.lstrip(" \n")[:1] in ("{", "[")


def load_json(text: str, file_name: str) -> list[tuple[Any, Location]] | None:
    """The one document of `text`, as `yamlio.load_documents` gives it, or None
    when yamlio must read it (see the module's docstring)."""
    if not looks_like_json(text) or _compiled(_UNLIKE_YAML).search(text):
        return None
    try:
        tree = json.loads(
            text,
            object_pairs_hook=_mapping,
            parse_float=_float,
            parse_int=_int,
            parse_constant=_constant,
        )
    except (ValueError, RecursionError, _Unlike):
        return None
    builder = _Builder(text, file_name)
    try:
        root = builder.build(tree, next(builder.starts), 0)
    except _Unlike:
        return None
    return [(root, Location(file_name, root.line, root.col))]


def _mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Unlike("a key twice")
    return found


def _number(text: str) -> str:
    if len(text) > yamlio.MAX_NUMBER_CHARS:
        raise _Unlike("a number longer than yamlio's limit")
    return text


def _float(text: str) -> float:
    if "e" in text or "E" in text:
        raise _Unlike("an exponent: YAML 1.1 reads it otherwise")
    return float(_number(text))


def _int(text: str) -> int:
    return int(_number(text))


def _constant(text: str) -> Any:
    raise _Unlike(f"{text} is not JSON's, nor a YAML value")


class _Builder:
    """The parsed tree rebuilt as yamlio's mappings and lists, each token's place
    taken in document order."""

    def __init__(self, text: str, file_name: str) -> None:
        self.file = file_name
        self.starts: Iterator[int] = (m.start() for m in _compiled(_STARTS).finditer(text))
        self.breaks = [m.start() for m in re.finditer("\n", text)]
        self.built = 0

    def place(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of `offset`."""
        line = bisect.bisect_left(self.breaks, offset)
        begins = self.breaks[line - 1] + 1 if line else 0
        return line + 1, offset - begins + 1

    def build(self, value: Any, at: int, depth: int) -> Any:
        if isinstance(value, dict):
            return self._mapping(value, at, depth)
        if isinstance(value, list):
            return self._list(value, at, depth)
        return value

    def _charge(self, count: int, depth: int) -> None:
        """yamlio's limits: anything near them is left to yamlio to refuse."""
        self.built += count
        if self.built > yamlio.MAX_NODES or depth >= yamlio.MAX_DEPTH - 1:
            raise _Unlike("at yamlio's limits")

    def _mapping(self, value: dict[str, Any], at: int, depth: int) -> YamlMap:
        self._charge(len(value) + 1, depth)
        mapping = YamlMap()
        mapping.file = self.file
        mapping.line, mapping.col = self.place(at)
        positions: dict[Any, int] = {}
        mapping._positions = positions
        starts, place = self.starts, self.place
        for key, item in value.items():
            key_at = place(next(starts))
            item_offset = next(starts)
            mapping[key] = self.build(item, item_offset, depth + 1)
            positions[key] = key_position(key_at, place(item_offset))
        return mapping

    def _list(self, value: list[Any], at: int, depth: int) -> YamlList:
        self._charge(len(value) + 1, depth)
        items = YamlList()
        items.file = self.file
        items.line, items.col = self.place(at)
        positions: list[int] = []
        items._positions = positions
        starts, place = self.starts, self.place
        for item in value:
            item_offset = next(starts)
            positions.append(item_position(place(item_offset)))
            items.append(self.build(item, item_offset, depth + 1))
        return items
