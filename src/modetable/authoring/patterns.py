"""Input combinations grouped into patterns, so a finding or a change reads as
a few lines ("requested=OMENative, declared=-") rather than one per value.

A pattern holds, per input, a set of values; the full domain is shown as
`-` (any value), a set bigger than half the domain as `not ...`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from modetable.rules.words import ConditionWord

__all__ = ["Pattern", "compress", "describe", "show_set"]

Pattern = tuple[tuple[frozenset[Any], ...], Hashable]


def compress(
    points: Sequence[tuple[tuple[Any, ...], Hashable]],
    domains: Sequence[Sequence[Any]],
) -> list[Pattern]:
    """`points` (an input combination and its label) as patterns.

    Patterns equal but for one input, with one label, merge into one whose
    value set at that input is the union. Merging repeats until nothing
    changes; the result keeps the order of first points, so it is stable.
    """
    patterns: list[Pattern] = [
        (tuple(frozenset([value]) for value in inputs), label)
        for inputs, label in dict.fromkeys(points)
    ]
    changed = True
    while changed:
        changed = False
        for position in range(len(domains)):
            merged = _merge(patterns, position)
            if len(merged) < len(patterns):
                changed = True
            patterns = merged
    return patterns


def _merge(patterns: list[Pattern], position: int) -> list[Pattern]:
    groups: dict[tuple[Any, ...], list[int]] = {}
    for index, (inputs, label) in enumerate(patterns):
        rest = (*inputs[:position], *inputs[position + 1 :], label)
        groups.setdefault(rest, []).append(index)
    result: dict[int, Pattern] = {}
    for members in groups.values():
        inputs, label = patterns[members[0]]
        union = frozenset().union(*(patterns[i][0][position] for i in members))
        result[members[0]] = ((*inputs[:position], union, *inputs[position + 1 :]), label)
    return [result[i] for i in sorted(result)]


def show_set(values: frozenset[Any], domain: Sequence[Any], show: Callable[[Any], str]) -> str:
    """`-` for every value, `a|b` for a few, `not c` when that is shorter."""
    if len(values) == len(set(domain)):
        return ConditionWord.ANY
    ordered = [show(v) for v in domain if v in values]
    missing = [show(v) for v in domain if v not in values]
    if len(missing) < len(ordered):
        return "not " + "|".join(missing)
    return "|".join(ordered)


def describe(
    names: Sequence[str],
    inputs: Sequence[frozenset[Any]],
    domains: Sequence[Sequence[Any]],
    show: Callable[[Any], str] = str,
) -> str:
    """`name=value, ...` for a pattern."""
    return ", ".join(
        f"{name}={show_set(values, domain, show)}"
        for name, values, domain in zip(names, inputs, domains, strict=True)
    )
