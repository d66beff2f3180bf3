"""Format and framework versions: the grammar and the operators, row by row
from selection-facts section 4 and model-version-matching.md."""

from __future__ import annotations

import pytest

from modetable.selection.model_versions import accepts, parse, refused_by_order


@pytest.fixture
def versions(v13):
    return v13.rules.selection.versions


@pytest.mark.parametrize(
    "text",
    [
        "1",
        "v1.12",
        "0.6.0",
        "v0.8.0",
        "4.51.3-SAM-HQ-preview",
        "4.43.0+build",
        "4.45.0.dev0",
        "1.2.3.4",
    ],
)
def test_versions_that_parse(versions, text):
    assert parse(text, versions) is not None


@pytest.mark.parametrize("text", ["1.08.0", "V1.0.0", "1.2-beta", "1.0.0-", ""])
def test_versions_that_do_not_parse(versions, text):
    assert parse(text, versions) is None


def test_suffixes_split_at_build_then_pre_release_then_dev(versions):
    assert parse("4.45.0.dev0", versions).suffixed
    assert parse("1.2.3.4", versions).suffixed
    assert parse("4.51.3-SAM-HQ-preview", versions).numbers == (4, 51, 3)
    assert not parse("v1.12", versions).suffixed
    assert parse("v1.12", versions).parts == 2


# model-version-matching.md, "Examples": entry version, operator, model version, matches.
DOCUMENTED = [
    ("1.0.0", "Equal", "1.0.0", True),
    ("1.0.0", None, "1.0", True),
    ("1.8.0", "GreaterThan", "1.7.0", True),
    ("1.8.0", "GreaterThan", "1.8.0", False),
    ("1.8.0", "GreaterThanOrEqual", "1.8.0", True),
    ("4.50.0", "GreaterThanOrEqual", "4.36.2", True),
    ("4.50.0", "GreaterThanOrEqual", "4.51.0", False),
    ("1.8.0-dev", "GreaterThan", "1.8.0-dev", True),
    ("4.45.0.dev0", "GreaterThanOrEqual", "4.44.0", False),
    ("4.50.0", "GreaterThanOrEqual", "4.45.0.dev0", False),
    ("1.8", "GreaterThan", "1.7.0", False),
]

# The sentences of selection-facts section 4, "Versions".
STATED = [
    # Equal: a missing part is 0, the v is ignored, suffixes (build too) must be identical.
    ("v1.0.0", "Equal", "1.0", True),
    ("4.45.0.dev0", "Equal", "4.45.0.dev0", True),
    ("4.43.0+build", "Equal", "4.43.0", False),
    ("4.43.0+build", "Equal", "4.43.0+other", False),
    # GreaterThanOrEqual makes the entry's version an upper limit.
    ("4.46.0", "GreaterThanOrEqual", "4.44.2", True),
    ("4.46.0", "GreaterThanOrEqual", "4.45.0.dev0", False),
    # Another operator string: Equal plus the same number of parts and the same v.
    ("1.0.0", "LessThan", "1.0.0", True),
    ("1.0.0", "LessThan", "0.9.0", False),
    ("1.0.0", "equal", "1.0", False),
    ("v1.0.0", "equal", "1.0.0", False),
    # The ordering operators: the same shape, else no match.
    ("v1.8.0", "GreaterThan", "1.7.0", False),
    ("1.8.0", "GreaterThan", "1.7", False),
    # An invalid version never matches, and "" counts as set.
    ("1.08.0", "Equal", "1.08.0", False),
    ("", "Equal", "", False),
    ("V1.0.0", "Equal", "V1.0.0", False),
]


@pytest.mark.parametrize(("entry", "operator", "model", "matches"), DOCUMENTED + STATED)
def test_operator_against_the_models_version(versions, entry, operator, model, matches):
    assert accepts(entry, model, operator, versions) is matches


@pytest.mark.parametrize(
    ("entry", "model", "operator", "symbol"),
    [
        # The order refused it: the entry (left) is below the model.
        ("4.33.1", "4.46.0", "GreaterThanOrEqual", ">="),
        ("1.0.0", "1.0.0", "GreaterThan", ">"),
        # The order accepted it.
        ("4.46.0", "4.33.1", "GreaterThanOrEqual", None),
        # Something else decided: equality, a suffix, the shape, an invalid version.
        ("4.33.1", "4.46.0", "Equal", None),
        ("4.33.1", "4.46.0", None, None),
        ("4.33.1", "4.46.0", "LessThan", None),
        ("4.33.1", "4.46.0.dev0", "GreaterThanOrEqual", None),
        ("4.33", "4.46.0", "GreaterThanOrEqual", None),
        ("v4.33.1", "4.46.0", "GreaterThanOrEqual", None),
        ("4.33.1", "4.046.0", "GreaterThanOrEqual", None),
    ],
)
def test_the_order_that_refused_a_model_is_its_operators_sign(
    versions, entry, model, operator, symbol
):
    assert refused_by_order(entry, model, operator, versions) == symbol
