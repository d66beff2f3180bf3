"""Runtime inheritance (ome-selection-facts.md section 10): chains, limits, errors, merge."""

from __future__ import annotations

import pytest
from conftest import cluster_of, runtime_doc

from modetable.engine.runtimes import InheritanceError, merge_inherited, resolve_chain


def chain_of(policy, *runtimes: dict, start: str = "a"):
    cluster = cluster_of(policy, *runtimes)
    target = next(r for r in cluster.runtimes if r.name == start)
    return resolve_chain(policy, cluster, target)


def inherits(name: str, parent: str | None, kind: str = "ClusterServingRuntime", **spec) -> dict:
    annotations = {"ome.io/inherit-from": parent} if parent else None
    return runtime_doc(name, kind=kind, annotations=annotations, **spec)


def test_a_runtime_without_parent_is_its_own_chain(v13):
    chain = chain_of(v13, inherits("a", None, disabled=False))
    assert chain.names == ("a",)
    assert chain.spec == {"disabled": False}


def test_a_chain_of_five_is_allowed(v13):
    runtimes = [inherits(n, p) for n, p in zip("abcde", ["b", "c", "d", "e", None], strict=True)]
    assert chain_of(v13, *runtimes).names == ("a", "b", "c", "d", "e")


def test_a_chain_of_six_exceeds_the_max_depth(v13):
    runtimes = [
        inherits(n, p) for n, p in zip("abcdef", ["b", "c", "d", "e", "f", None], strict=True)
    ]
    with pytest.raises(InheritanceError) as caught:
        chain_of(v13, *runtimes)
    assert caught.value.message == "inheritance chain exceeds max depth 5: [a b c d e f]"


def test_a_missing_parent(v13):
    with pytest.raises(InheritanceError) as caught:
        chain_of(v13, inherits("a", "b"), inherits("b", "gone"))
    assert caught.value.message == 'inherit-from parent "gone" not found (chain so far: [a b])'
    assert str(caught.value.location).startswith("test.yaml:")


def test_a_cycle(v13):
    with pytest.raises(InheritanceError) as caught:
        chain_of(v13, inherits("a", "b"), inherits("b", "a"))
    assert caught.value.message == "inheritance cycle detected: [a b a]"


def test_a_self_cycle(v13):
    with pytest.raises(InheritanceError) as caught:
        chain_of(v13, inherits("a", "a"))
    assert caught.value.message == "inheritance cycle detected: [a a]"


def test_a_cluster_runtime_looks_for_parents_among_cluster_runtimes_only(v13):
    child = inherits("a", "base")
    namespaced_parent = inherits("base", None, kind="ServingRuntime", disabled=True)
    with pytest.raises(InheritanceError):
        chain_of(v13, child, namespaced_parent)


def test_a_namespaced_runtime_looks_in_its_namespace_then_at_cluster_scope(v13):
    child = inherits("a", "base", kind="ServingRuntime")
    local = inherits("base", None, kind="ServingRuntime", engineConfig={"x": "local"})
    cluster_wide = inherits("base", None, engineConfig={"x": "cluster"})
    assert chain_of(v13, child, local, cluster_wide).spec["engineConfig"] == {"x": "local"}
    assert chain_of(v13, child, cluster_wide).spec["engineConfig"] == {"x": "cluster"}


def test_v122_ignores_inherit_from(v122):
    assert chain_of(v122, inherits("a", "missing")).names == ("a",)


MERGE = {"list_key": "name", "replace": frozenset({"command", "args", "tolerations"})}


def test_merge_replaces_scalars_and_merges_maps():
    parent = {"a": 1, "m": {"x": 1, "y": 2}}
    child = {"a": 2, "m": {"y": 3}}
    assert merge_inherited(parent, child, **MERGE) == {"a": 2, "m": {"x": 1, "y": 3}}


def test_merge_treats_empty_values_as_unset():
    parent = {"a": "p", "l": [1], "m": {"k": "v"}}
    assert merge_inherited(parent, {"a": "", "l": [], "m": {}}, **MERGE) == parent


def test_merge_merges_keyed_lists_by_item_and_replaces_command():
    parent = {
        "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
        "command": ["x", "y"],
    }
    child = {"env": [{"name": "B", "value": "3"}, {"name": "C", "value": "4"}], "command": ["z"]}
    assert merge_inherited(parent, child, **MERGE) == {
        "env": [
            {"name": "A", "value": "1"},
            {"name": "B", "value": "3"},
            {"name": "C", "value": "4"},
        ],
        "command": ["z"],
    }
