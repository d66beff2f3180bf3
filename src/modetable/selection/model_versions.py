"""Format and framework versions as OME's selection reads them: the grammar,
the comparison, and the operators (all their rules in `selection.versions`).

This is not PEP 440: `4.45.0.dev0` has a suffix that only an equal version
matches, `1.0` equals `1.0.0`, and a leading zero makes a version invalid.
"""

from __future__ import annotations

from functools import lru_cache

from modetable.rules.model.selection import ModelVersions, VersionOperator
from modetable.rules.words import VersionOutcome
from modetable.settled import frozen

__all__ = ["ModelVersion", "accepts", "parse", "refused_by_order"]

_MAX_NUMBER = 2**64  # the numbers are unsigned 64-bit in OME
_MAX_DIGITS = len(str(_MAX_NUMBER))  # more digits overflow, however they start


@frozen
class ModelVersion:
    text: str
    prefix: str
    numbers: tuple[int, ...]
    parts: int
    # One tuple of dot-separated pieces per suffix mark, in the marks' order.
    suffixes: tuple[tuple[str, ...], ...]

    @property
    def suffixed(self) -> bool:
        return any(self.suffixes)


def _number(text: str) -> int | None:
    if not text or not (text.isascii() and text.isdigit()):
        return None
    if len(text) > 1 and text[0] == "0":
        return None
    if len(text) > _MAX_DIGITS:  # too long for OME, and for Python's int() too
        return None
    value = int(text)
    return value if value < _MAX_NUMBER else None


def _split_suffixes(last: str, marks: tuple[str, ...]) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """The last part's number, and its suffixes split off mark by mark (in order)."""
    suffixes = []
    for mark in marks:
        head, found, tail = last.partition(mark)
        if found:
            last = head
            suffixes.append(tuple(tail.split(".")))
        else:
            suffixes.append(())
    return last, tuple(suffixes)


def parse(text: str, rules: ModelVersions) -> ModelVersion | None:
    """The version `text` spells, or None when it is not one (it never matches)."""
    return _parse(text, rules.max_parts, rules.prefixes, rules.suffix_marks)


# A cluster spells a few dozen versions, compared thousands of times per
# selection: each is parsed once (bounded, so a hostile input cannot grow it).
@lru_cache(maxsize=4096)
def _parse(
    text: str, max_parts: int, prefixes: tuple[str, ...], suffix_marks: tuple[str, ...]
) -> ModelVersion | None:
    if not text:
        return None
    pieces = text.split(".", max_parts - 1)
    prefix = next((p for p in prefixes if pieces[0].startswith(p)), "")
    pieces[0] = pieces[0][len(prefix) :]
    suffixes: tuple[tuple[str, ...], ...] = ((),) * len(suffix_marks)
    if len(pieces) == max_parts:
        # Only the last of all the parts may carry suffixes.
        pieces[-1], suffixes = _split_suffixes(pieces[-1], suffix_marks)
        if any(piece == "" for suffix in suffixes for piece in suffix):
            return None
    numbers = [_number(piece) for piece in pieces]
    if any(n is None for n in numbers):
        return None
    padded = tuple(n or 0 for n in numbers) + (0,) * (max_parts - len(numbers))
    return ModelVersion(
        text=text, prefix=prefix, numbers=padded, parts=len(pieces), suffixes=suffixes
    )


def _compare(left: ModelVersion, right: ModelVersion) -> VersionOutcome:
    """Numbers first (a missing part is 0, the prefix ignored), then each suffix."""
    for mine, theirs in (
        (left.numbers, right.numbers),
        *zip(left.suffixes, right.suffixes, strict=True),
    ):
        if mine != theirs:
            return VersionOutcome.GREATER if mine > theirs else VersionOutcome.LESS
    return VersionOutcome.EQUAL


def _rule(
    entry: ModelVersion, model: ModelVersion, operator: str | None, rules: ModelVersions
) -> VersionOperator:
    if entry.suffixed or model.suffixed:
        return rules.suffixed
    name = rules.default_operator if operator is None else operator
    return rules.operators.get(name, rules.other_operator)


def _same_shape(entry: ModelVersion, model: ModelVersion) -> bool:
    return entry.parts == model.parts and entry.prefix == model.prefix


def accepts(entry: str, model: str, operator: str | None, rules: ModelVersions) -> bool:
    """Whether an entry's version and operator accept the model's version."""
    entry_version = parse(entry, rules)
    model_version = parse(model, rules)
    if entry_version is None or model_version is None:
        return False
    rule = _rule(entry_version, model_version, operator, rules)
    if rule.same_shape and not _same_shape(entry_version, model_version):
        return False
    return _compare(entry_version, model_version) in rule.accepts


def refused_by_order(
    entry: str, model: str, operator: str | None, rules: ModelVersions
) -> str | None:
    """The ordering operator's sign when the order of two valid versions of one
    shape refused the model's (`4.33.1 >= 4.46.0`); None when it accepted, or
    when something else decided (an invalid version, a suffix, the shape, an
    operator without a sign)."""
    entry_version = parse(entry, rules)
    model_version = parse(model, rules)
    if entry_version is None or model_version is None:
        return None
    rule = _rule(entry_version, model_version, operator, rules)
    if rule.symbol is None or not _same_shape(entry_version, model_version):
        return None
    if _compare(entry_version, model_version) in rule.accepts:
        return None
    return rule.symbol
