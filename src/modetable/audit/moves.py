"""What a component's move between modes breaks: names in a spec that the old
mode's workload set and the new one does not (rules: `mode_moves`).

A spec is scanned whole, keys and string values alike: a variable shows up in a
command (`$(LWS_GROUP_SIZE)`), a label as a key of a label map or inside a
selector string (`...worker-index=0`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from modetable.errors import Location
from modetable.parsing.yamlio import where
from modetable.rules.model.modes import ModeMove, MoveBreak
from modetable.rules.policy import Policy
from modetable.settled import frozen

__all__ = ["Hit", "find_move", "hit_message", "mentions", "scan"]

# Characters a variable or label name runs on over; anything else ends it.
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/")
_VALUE_SEPARATOR = "="


@frozen
class Hit:
    """One name a move breaks, where it stands, and what replaces it."""

    what: str
    name: str
    replacement: str | None
    path: str
    location: Location | None


def find_move(policy: Policy, from_mode: str | None, to_mode: str | None) -> ModeMove | None:
    return next(
        (m for m in policy.rules.mode_moves if m.from_mode == from_mode and m.to_mode == to_mode),
        None,
    )


def _names_in(text: str, rule: MoveBreak) -> Iterator[str]:
    """Each name starting with the rule's prefix in `text`, with `=value` when the
    rules replace that pair (a label selector)."""
    start = text.find(rule.prefix)
    while start != -1:
        if start == 0 or text[start - 1] not in _NAME_CHARS:
            end = start + len(rule.prefix)
            while end < len(text) and text[end] in _NAME_CHARS:
                end += 1
            name = text[start:end]
            if text.startswith(_VALUE_SEPARATOR, end):
                value_end = end + 1
                while value_end < len(text) and text[value_end] in _NAME_CHARS:
                    value_end += 1
                pair = text[start:value_end]
                if pair in rule.replacements:
                    name = pair
            yield name
            start = text.find(rule.prefix, end)
        else:
            start = text.find(rule.prefix, start + 1)


def _child(path: str, key: Any) -> str:
    """`path.key`, or `path[key]` for a key with dots or slashes (a label, an annotation)."""
    text = str(key)
    if any(c in text for c in "./"):
        return f"{path}[{text}]"
    return f"{path}.{text}" if path else text


def _walk(node: Any, path: str, here: Location) -> Iterator[tuple[str, str, Location]]:
    """Every key and string value under `node`: (text, path, location). A key with a
    scalar value reads as `key=value`, as a label selector writes it."""
    if isinstance(node, dict):
        for key, value in node.items():
            child = _child(path, key)
            location = where(node, key, here)
            if isinstance(key, str):
                scalar = isinstance(value, str | int) and not isinstance(value, bool)
                yield (f"{key}{_VALUE_SEPARATOR}{value}" if scalar else key), child, location
            yield from _walk(value, child, location)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, f"{path}[{index}]", where(node, index, here))
    elif isinstance(node, str):
        yield node, path, here


@functools.lru_cache(maxsize=64)
def _pattern(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(p) for p in prefixes))


def mentions(node: Any, prefixes: tuple[str, ...]) -> bool:
    """Whether any key or string under `node` holds one of `prefixes`: a quick
    look before the walk that places each name (most specs hold none)."""
    search = _pattern(prefixes).search
    stack = [node]
    while stack:
        current = stack.pop()
        items = current.items() if isinstance(current, dict) else enumerate(current)
        for key, value in items:
            if isinstance(key, str) and search(key):
                return True
            if isinstance(value, str):
                if search(value):
                    return True
            elif isinstance(value, dict | list):
                stack.append(value)
    return False


def scan(move: ModeMove, spec: Any, path: str, fallback: Location) -> tuple[Hit, ...]:
    """The names `move` breaks in `spec` (rooted at `path`), in document order, each once
    per place."""
    if not isinstance(spec, dict | list) or not mentions(
        spec, tuple(rule.prefix for rule in move.breaks)
    ):
        return ()
    hits: list[Hit] = []
    seen: set[tuple[str, str]] = set()
    for text, at, location in _walk(spec, path, fallback):
        for rule in move.breaks:
            if rule.prefix not in text:
                continue
            for name in _names_in(text, rule):
                if (name, at) in seen:
                    continue
                seen.add((name, at))
                hits.append(
                    Hit(
                        what=rule.what,
                        name=name,
                        replacement=rule.replacements.get(name),
                        path=at,
                        location=location,
                    )
                )
    return tuple(hits)


def hit_message(policy: Policy, move: ModeMove, hit: Hit, owner: str) -> str:
    """`owner`'s use of a name the move breaks, and what to do about it."""
    values = {
        "where": f"{owner} {hit.path}",
        "what": hit.what,
        "name": hit.name,
        "to_mode": move.to_mode,
        "replacement": hit.replacement or "",
    }
    key = "move_breaks" if hit.replacement else "move_breaks_unreplaced"
    return policy.message(key, **values)
