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


def _tree(data, shared=None) -> Any:
    """`data` node by node: each node's type and value, a mapping's keys in
    order, and where a list or mapping stands again (the same object, which
    YAML writes as an alias) the first place it stood. The JSON and YAML
    dumpers write from exactly this, so two data of one tree print the same."""
    shared = {} if shared is None else shared
    if isinstance(data, dict | list):
        if id(data) in shared:
            return ("again", shared[id(data)])
        shared[id(data)] = len(shared)
        if isinstance(data, dict):
            items = [(_tree(k, shared), _tree(v, shared)) for k, v in data.items()]
            return (type(data), items)
        return (type(data), [_tree(item, shared) for item in data])
    return (type(data), data)


def _same_tree(view) -> None:
    """`_same` for the catalog's answers, without YAML's dumper (most of the
    time): the same tree node by node, which is what both dumpers write, and
    the same JSON text."""
    made, converted = document(view), unstructure(view)
    assert _tree(made) == _tree(converted)
    assert _json(made) == _json(converted)


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
