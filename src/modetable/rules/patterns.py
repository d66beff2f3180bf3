"""Input combinations grouped into patterns, so a finding or a change reads as
one line ("requested=OMENative, declared=-") rather than one per value."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

ANY = "-"


def compress(
    points: Sequence[tuple[tuple[Any, ...], Hashable]],
    domains: Sequence[Sequence[Any]],
) -> list[tuple[tuple[Any, ...], Hashable]]:
    """`points` (an input combination and its label) as patterns with `ANY`.

    An input becomes `ANY` where every value of its domain gives the same
    label with the other inputs equal. Patterns come out in the order of
    their first point, so the result is stable.
    """
    patterns = list(dict.fromkeys(points))
    for _round in range(2):  # a second pass merges what the first made mergeable
        for position, domain in enumerate(domains):
            patterns = _merge(patterns, position, len(set(domain)))
    return patterns


def _merge(
    patterns: list[tuple[tuple[Any, ...], Hashable]], position: int, size: int
) -> list[tuple[tuple[Any, ...], Hashable]]:
    groups: dict[tuple[Any, ...], list[int]] = {}
    for index, (inputs, label) in enumerate(patterns):
        rest = (*inputs[:position], *inputs[position + 1 :], label)
        groups.setdefault(rest, []).append(index)
    merged: dict[int, tuple[tuple[Any, ...], Hashable]] = {}
    dropped: set[int] = set()
    for members in groups.values():
        values = {patterns[i][0][position] for i in members}
        if ANY in values or len(values) < size or size < 2:
            continue
        first = members[0]
        inputs, label = patterns[first]
        merged[first] = ((*inputs[:position], ANY, *inputs[position + 1 :]), label)
        dropped.update(members[1:])
    return [merged.get(i, p) for i, p in enumerate(patterns) if i not in dropped]


def describe(names: Sequence[str], inputs: Sequence[Any], show: Any = str) -> str:
    """`name=value, ...` for a pattern."""
    return ", ".join(f"{name}={show(value)}" for name, value in zip(names, inputs, strict=True))
