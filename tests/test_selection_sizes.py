"""Sizes and size ranges (selection-facts section 5, model-size-range-matching.md)."""

from __future__ import annotations

import pytest

from modetable.selection.sizes import SizeRange, distance, parse_size, within


@pytest.fixture
def sizes(v13):
    return v13.rules.selection.sizes


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("500M", 500e6),
        ("3.21B", 3.21e9),
        ("1.5T", 1.5e12),
        ("999", 999.0),
        ("0.5B", 500e6),
        ("685B", 685e9),
        # Lower case, a stray letter or nothing at all reads as 0.
        ("4b", 0.0),
        ("2b", 0.0),
        ("7BB", 0.0),
        ("", 0.0),
        ("B", 0.0),
        # What Go's strconv.ParseFloat refuses reads as 0 too: digits other
        # than 0-9, a number out of float64's range, a signed NaN.
        ("\u0663B", 0.0),
        ("\uff17B", 0.0),
        ("1e999B", 0.0),
        ("+nan", 0.0),
        ("1_000M", 0.0),
        # ...and what it accepts counts: exponents, a bare dot, infinities.
        ("1e3M", 1e9),
        (".5B", 5e8),
        ("7.B", 7e9),
        ("-Infinity", float("-inf")),
    ],
)
def test_parse(sizes, text, count):
    assert parse_size(text, sizes) == pytest.approx(count)


def test_half_a_billion_is_five_hundred_million(sizes):
    assert parse_size("0.5B", sizes) == parse_size("500M", sizes)


# The page's "Examples": min, max, modelParameterSize, passes.
EXAMPLES = [
    ("2B", "4B", "3.21B", True),
    ("2B", "4B", "4B", True),
    ("500M", "2B", "3.21B", False),
    ("1B", "4B", "1500M", True),
    ("70B", None, "405B", True),
    (None, "13B", "3.21B", True),
    # Stated in selection-facts section 5.
    ("2B", "4b", "3.21B", False),  # max: 4b rejects every sized model
    ("2b", "4B", "100M", True),  # min: 2b sets no lower limit
    ("4B", "2B", "3B", False),  # min above max rejects every sized model
    ("4B", "2B", "4B", False),
]


@pytest.mark.parametrize(("low", "high", "size", "passes"), EXAMPLES)
def test_range_examples(sizes, low, high, size, passes):
    bounds = SizeRange(low, high).bounds(sizes, "v1.3")
    assert within(parse_size(size, sizes), *bounds) is passes


@pytest.mark.parametrize(
    ("low", "high", "shown"),
    [
        ("500M", "2B", "[500M, 2B]"),
        ("2B", "4b", "[2B, 4b]"),
        ("70B", None, "[70B, inf)"),
        (None, "13B", "(-inf, 13B]"),
    ],
)
def test_the_range_as_the_reason_shows_it(sizes, low, high, shown):
    assert SizeRange(low, high).render(sizes, "v1.3") == shown


def test_before_v13_a_missing_bound_reads_as_an_empty_value(sizes):
    """Decided: v1.2.2 needs both bounds; a missing one reads (and shows) as empty."""
    missing_max = SizeRange("70B", None)
    assert missing_max.render(sizes, "v1.2.2") == "[70B, ]"
    assert not within(parse_size("405B", sizes), *missing_max.bounds(sizes, "v1.2.2"))
    missing_min = SizeRange(None, "13B")
    assert within(parse_size("3.21B", sizes), *missing_min.bounds(sizes, "v1.2.2"))


def test_distance_is_the_sum_of_each_bounds_distance(sizes):
    size = parse_size("3.21B", sizes)
    both = SizeRange("1B", "8B").bounds(sizes, "v1.3")
    assert distance(size, *both) == pytest.approx(7e9)  # max - min
    assert distance(size, None, None) == 0
    one = SizeRange("1B", None).bounds(sizes, "v1.3")
    assert distance(size, *one) == pytest.approx(2.21e9)
