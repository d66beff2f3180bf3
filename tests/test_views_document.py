"""`views.document.document`, the walk the commands about one InferenceService
write their JSON and YAML with (no cattrs on a cold start), gives what the one
converter, `views.converter.unstructure`, gives: the same JSON and YAML, byte
for byte, for every answer of select, match, effective and admit over OME's
catalog, and for made-up views with each of the converter's metadata."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from corpus import catalog

from modetable.api.results import admit_result, effective_result, match_result, select_result
from modetable.output.render import yaml_dumper
from modetable.settled import frozen
from modetable.views.common import FLATTEN, OMIT_IF_NONE, key
from modetable.views.converter import unstructure
from modetable.views.document import document


def _json(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def _texts(data):
    import yaml

    return (
        _json(data),
        yaml.dump(data, Dumper=yaml_dumper(), sort_keys=False, allow_unicode=True, width=10**6),
    )


def _same(view) -> None:
    made, converted = document(view), unstructure(view)
    assert made == converted
    assert _texts(made) == _texts(converted)


def _same_nodes(made, converted) -> None:
    """`made` and `converted` node by node, in one walk of both: each node's
    type and value, a mapping's keys in order, and where a list or mapping
    stands again (the same object, which YAML writes as an alias) the first
    place it stood. The JSON and YAML dumpers write from exactly this, so two
    data that pass print the same. Fails at the first place they differ."""
    places: tuple[dict[int, int], dict[int, int]] = ({}, {})

    def walk(a, b, at: str) -> None:
        assert type(a) is type(b), (at, a, b)
        if not isinstance(a, dict | list):
            assert a is b or a == b, (at, a, b)
            return
        first = (places[0].get(id(a)), places[1].get(id(b)))
        assert first[0] == first[1], (at, "stands again", first)
        if first[0] is not None:
            return
        places[0][id(a)] = places[1][id(b)] = len(places[0])
        assert len(a) == len(b), (at, len(a), len(b))
        if isinstance(a, dict):
            for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True):
                walk(ka, kb, f"{at} key")
                walk(va, vb, f"{at}.{ka}")
        else:
            for number, (ia, ib) in enumerate(zip(a, b, strict=True)):
                walk(ia, ib, f"{at}[{number}]")

    walk(made, converted, "")


def _same_tree(view) -> None:
    """`_same` for the catalog's answers, without YAML's dumper (most of the
    time): the same tree node by node, which is what both dumpers write, and
    the same JSON text (compared compact, by json's C encoder: the indented
    text `-o json` prints is the same tokens with spaces and line breaks put
    in by nesting alone, so two data print it alike exactly when their compact
    texts are the same)."""
    made, converted = document(view), unstructure(view)
    _same_nodes(made, converted)
    assert json.dumps(made, ensure_ascii=False) == json.dumps(converted, ensure_ascii=False)


@pytest.mark.slow
@pytest.mark.parametrize("answer", [select_result, effective_result, admit_result])
def test_every_catalog_answer_is_the_converters(answer):
    """Each outcome found by the fleet's evaluator, every candidate assessed
    (the outcome every step run gives: tests/test_selection_catalog.py), one
    memo for the three answers: what is compared here is the view's two
    conversions, not how the outcome was found."""
    corpus = catalog("v1.3")
    for isvc in corpus.cluster.isvcs:
        _same_tree(answer(corpus.policy, corpus.cluster, isvc, evaluator=corpus.evaluator).view)


@pytest.mark.slow
def test_every_catalog_match_is_the_converters():
    corpus = catalog("v1.3")
    for isvc in corpus.cluster.isvcs:
        _same_tree(match_result(corpus.policy, corpus.cluster, isvc).view)


@frozen
class _Inner:
    name: str
    words: tuple[str, ...] = ()


@frozen
class _Outer:
    first: str
    inner: _Inner = attrs.field(metadata=FLATTEN)
    note: str | None = attrs.field(default=None, metadata=OMIT_IF_NONE)
    source: str = attrs.field(default="x", metadata=key("from"))
    items: tuple[_Inner, ...] = ()
    by_name: dict[str, _Inner] = attrs.field(factory=dict)
    anything: Any = None


def test_each_kind_of_field_is_the_converters():
    inner = _Inner("a", ("b", "c"))
    for view in [
        _Outer("one", inner),
        _Outer("two", inner, note="n", source="s", items=(inner, _Inner("d")), anything=(1, "x")),
        _Outer("three", inner, by_name={"k": inner}, anything={"k": [inner]}),
    ]:
        _same(view)
    assert document(_Outer("one", inner)) == {
        "first": "one",
        "name": "a",
        "words": ["b", "c"],
        "from": "x",
        "items": [],
        "by_name": {},
        "anything": None,
    }


def test_the_node_walk_finds_what_a_dumper_would_print_differently():
    """What `_same_tree` holds the catalog's answers to: a type, a value, the
    keys' order, a list or mapping standing again (an alias in YAML)."""
    shared = ["x"]
    _same_nodes({"a": [1, shared, shared]}, {"a": [1, shared, shared]})
    again = ["x"]
    _same_nodes({"a": [1, shared, shared]}, {"a": [1, again, again]})
    for made, converted in [
        ({"a": 1}, {"a": 1.0}),
        ({"a": True}, {"a": 1}),
        ({"a": (1,)}, {"a": [1]}),
        ({"a": "x"}, {"a": "y"}),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        ({"a": [1]}, {"a": [1, 2]}),
        ({"a": [shared, shared]}, {"a": [shared, ["x"]]}),
        ({"a": [["x"], ["x"]]}, {"a": [shared, shared]}),
    ]:
        with pytest.raises(AssertionError):
            _same_nodes(made, converted)
