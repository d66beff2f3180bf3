"""Property-based fuzzing of the functions that merge what users wrote.

The CLI fuzz (test_fuzz_cli.py) reaches them only through rare combinations
(a named runtime, its parent, and a list on both); here they get any JSON
values at all, as hand-edited YAML can hold them.
"""

from __future__ import annotations

import os

from conftest import RULES
from hypothesis import given, settings
from hypothesis import strategies as st

from modetable.rules import load_ruleset
from modetable.runtimes import merge_component, merge_inherited

RULE = load_ruleset(RULES).rules.inheritance
FUZZ = settings(
    max_examples=int(os.environ.get("MODETABLE_FUZZ_EXAMPLES", "200")),
    deadline=None,
    derandomize="MODETABLE_FUZZ_EXAMPLES" not in os.environ,
)


def _with_key(item: dict) -> dict:
    return {RULE.list_key: "a", **item}


keys = st.sampled_from([RULE.list_key, *RULE.replace, "image", "env", "a"])
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(keys, inner, max_size=3),
        # A list whose items all carry the merge key, as containers and volumes do.
        st.lists(st.dictionaries(keys, inner, max_size=2).map(_with_key), max_size=3),
    ),
    max_leaves=12,
)


def _walk(value):
    """Every node of a merged value (it must stay a plain JSON-like tree)."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


@FUZZ
@given(parent=json_values, child=json_values)
def test_an_inheritance_merge_takes_any_values(parent, child):
    merged = merge_inherited(parent, child, RULE.list_key, frozenset(RULE.replace))
    for node in _walk(merged):
        assert node is None or isinstance(node, dict | list | str | int | bool)


@FUZZ
@given(parent=json_values, child=json_values)
def test_a_child_value_that_is_set_and_not_a_mapping_or_list_wins(parent, child):
    merged = merge_inherited(parent, child, RULE.list_key, frozenset(RULE.replace))
    if child not in (None, "", [], {}) and not isinstance(child, dict | list):
        assert merged == child


@FUZZ
@given(runtime_config=json_values, isvc_component=json_values)
def test_a_component_merge_takes_any_values_and_the_isvc_keys_win(runtime_config, isvc_component):
    merged = merge_component(runtime_config, isvc_component)
    if isinstance(runtime_config, dict) and isinstance(isvc_component, dict):
        for key, value in isvc_component.items():
            if not isinstance(value, dict) and value is not None:
                assert merged[key] == value
