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

from modetable.engine.running import merge_along
from modetable.engine.runtimes import merge_inherited
from modetable.rules import load_ruleset

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


def merge_component(runtime_config, isvc_component):
    """The whole merge OME performs (the runtime's component config under the
    InferenceService's: maps merge key by key, the InferenceService's keys win);
    modetable computes it only along the paths the rules read (merge_along)."""
    if isinstance(runtime_config, dict) and isinstance(isvc_component, dict):
        merged = dict(runtime_config)
        for key, value in isvc_component.items():
            merged[key] = merge_component(runtime_config.get(key), value)
        return merged
    return runtime_config if isvc_component is None else isvc_component


MISSING = object()


def _lookup(value, path):
    for key in path:
        if not isinstance(value, dict):
            return MISSING
        value = value.get(key, MISSING)
    return value


def _tree(paths_read):
    tree: dict = {}
    for path in paths_read:
        node = tree
        for key in path:
            node = node.setdefault(key, {})
    return tree


paths_read = st.lists(st.lists(keys, min_size=1, max_size=3).map(tuple), max_size=4)


@FUZZ
@given(runtime_config=json_values, isvc_component=json_values, reads=paths_read)
def test_the_merge_along_the_paths_read_is_the_whole_merge_there(
    runtime_config, isvc_component, reads
):
    """Where a source looks, it sees what the whole merge would hold: the same
    value, or a mapping where the whole merge has one (a source asks a mapping
    only whether it is there)."""
    along = merge_along(runtime_config, isvc_component, _tree(reads))
    whole = merge_component(runtime_config, isvc_component)
    for path in reads:
        for depth in range(len(path) + 1):
            mine, theirs = _lookup(along, path[:depth]), _lookup(whole, path[:depth])
            if isinstance(theirs, dict):
                assert isinstance(mine, dict), (path, depth)
            else:
                assert mine in (MISSING, None) if theirs in (MISSING, None) else mine == theirs


def _aliased(width: int):
    """A mapping of `width` keys each holding one shared mapping of `width` keys."""
    shared = {f"k{i}": i for i in range(width)}
    return {f"a{i}": shared for i in range(width)}


def test_the_merge_does_not_walk_what_no_source_reads():
    """Both sides aliasing one 2,000-key mapping 2,000 times (4 million nodes
    each, expanded): merged along one path, only that path is visited."""
    runtime_config, isvc_component = _aliased(2000), _aliased(2000)
    visited = []

    class Counting(dict):
        def get(self, key, default=None):
            visited.append(key)
            return super().get(key, default)

    merged = merge_along(Counting(runtime_config), Counting(isvc_component), {"a1": {"k2": {}}})
    assert merged["a1"]["k2"] == 2
    assert visited == ["a1", "a1"]
