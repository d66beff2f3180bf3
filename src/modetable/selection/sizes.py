"""Model sizes and size ranges: parsing, the range as the reason shows it,
inclusion and the ranking's distance (their rules in `selection.sizes`)."""

from __future__ import annotations

import math
import re

from modetable.rules.model.selection import Sizes
from modetable.settled import frozen
from modetable.text.templates import fill
from modetable.versions import in_force

__all__ = ["SizeRange", "distance", "parse_size", "within"]

# A decimal number as Go's strconv.ParseFloat reads one (ASCII digits only, no
# underscores; hexadecimal left out), and the special values it accepts, in
# any case (a sign only before an infinity).
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_SPECIAL = re.compile(r"[+-]?(inf|infinity)|nan", re.IGNORECASE)


def parse_size(text: str, rules: Sizes) -> float:
    """The count `text` spells (`3.21B`, `500M`, `999`); `rules.unparsed` when it
    does not parse (`4b`), as when ParseFloat fails."""
    number, multiplier = text, 1
    for unit, value in rules.units.items():
        if text.endswith(unit):
            number, multiplier = text[: -len(unit)], value
            break
    if _SPECIAL.fullmatch(number):
        return float(number) * multiplier
    if not _NUMBER.fullmatch(number):
        return float(rules.unparsed)
    parsed = float(number)
    if math.isinf(parsed):
        # Beyond float64's range: ParseFloat reports an error.
        return float(rules.unparsed)
    return parsed * multiplier


@frozen
class SizeRange:
    """A runtime's modelSizeRange as written; a bound is None when left out."""

    min: str | None
    max: str | None

    def bounds(self, rules: Sizes, version: str) -> tuple[float | None, float | None]:
        """The bounds as counts; None is no limit. Before one-bound ranges, a
        missing bound reads as an empty value does."""
        one_bound = in_force(rules.one_bound_since, None, version)
        return (
            _bound(self.min, rules, one_bound),
            _bound(self.max, rules, one_bound),
        )

    def render(self, rules: Sizes, version: str) -> str:
        """`[500M, 2B]`, `[70B, inf)`: the values as written."""
        one_bound = in_force(rules.one_bound_since, None, version)
        sides = {}
        for side, value in (("min", self.min), ("max", self.max)):
            if value is None and one_bound:
                sides[side] = rules.missing[side]
            else:
                sides[side] = fill(rules.shown[side], {"value": value or ""})
        return fill(rules.range, sides)


def _bound(value: str | None, rules: Sizes, one_bound: bool) -> float | None:
    if value is None:
        return None if one_bound else parse_size("", rules)
    return parse_size(value, rules)


def within(size: float, low: float | None, high: float | None) -> bool:
    """Inclusive bounds; a NaN compares as Go's floats do (never outside)."""
    below = low is not None and size < low
    above = high is not None and size > high
    return not (below or above)


def distance(size: float, low: float | None, high: float | None) -> float:
    """How far the bounds are from the size, summed; 0 with no range."""
    total = 0.0
    for bound in (low, high):
        if bound is not None:
            total += abs(size - bound)
    return 0.0 if math.isnan(total) else total
