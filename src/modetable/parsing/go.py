"""Values as Go reads them, where OME's behaviour hangs on it: a duration
(`time.ParseDuration`) and whether a float parses (`strconv.ParseFloat`)."""

from __future__ import annotations

import functools
import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["go_duration_nanoseconds", "go_parses_float"]

# A pattern compiled when first used, not when the module is imported (a cold
# start's cost: docs/performance.md).
_compiled = functools.cache(re.compile)

_UNITS = {
    "ns": 1,
    "us": 1_000,
    "\u00b5s": 1_000,
    "\u03bcs": 1_000,
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_PART = r"([0-9]*(?:\.[0-9]*)?)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)"


def go_duration_nanoseconds(text: str) -> Fraction | None:
    """time.ParseDuration: `[-+]?(number unit)+` or `0`; None when it does not parse."""
    from fractions import Fraction

    body, sign = text, 1
    if body[:1] in "+-" and body:
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    if body == "0":
        return Fraction(0)
    if body == "":
        return None
    total = Fraction(0)
    position = 0
    while position < len(body):
        match = _compiled(_PART).match(body, position)
        if match is None or match.end() == position:
            return None
        number, unit = match.groups()
        if number in ("", "."):
            return None
        total += Fraction(number) * _UNITS[unit]
        position = match.end()
    return sign * total


_DECIMAL = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
_HEX = r"[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+"
_SPECIAL = r"(?i:[+-]?(inf|infinity)|nan)"


def go_parses_float(text: str) -> bool:
    """Whether strconv.ParseFloat(text, 64) succeeds: a decimal or hexadecimal
    number within float64's range, or inf/infinity (signed) or nan."""
    if _compiled(_SPECIAL).fullmatch(text):
        return True
    if _compiled(_DECIMAL).fullmatch(text):
        return math.isfinite(float(text))
    if _compiled(_HEX).fullmatch(text):
        sign = -1.0 if text.startswith("-") else 1.0
        try:
            return math.isfinite(sign * float.fromhex(text.lstrip("+-")))
        except OverflowError:
            return False
    return False
