"""JSON read by the json module gives exactly what yamlio gives: the same values,
every mapping and list at the same file, line and column, and for anything the
two could read apart, yamlio's own answer (the fast path steps aside)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import run_cli
from corpus import catalog_files, fleet_documents
from hypothesis import given, settings
from hypothesis import strategies as st

from modetable.errors import ModetableError
from modetable.parsing import jsonio, yamlio


def _yamlio(text: str) -> Any:
    """yamlio's documents, or its error as the one line it prints."""
    try:
        with yamlio.one_run():
            return yamlio.load_documents(text, "f.json")
    except ModetableError as exc:
        return f"error: {exc}"


def _either(text: str) -> Any:
    """What reading a file does: the fast path when it answers, else yamlio."""
    found = jsonio.load_json(text, "f.json")
    return _yamlio(text) if found is None else found


def _tree(node: Any) -> Any:
    """A node with everything yamlio keeps: type, value, and every position."""
    if isinstance(node, yamlio.YamlMap):
        return (
            "map",
            (node.file, node.line, node.col),
            [(key, node._positions[key], _tree(value)) for key, value in node.items()],
        )
    if isinstance(node, yamlio.YamlList):
        return ("list", (node.file, node.line, node.col), node._positions, [_tree(v) for v in node])
    return (type(node).__name__, node)


def _read(result: Any) -> Any:
    if isinstance(result, str):
        return result
    return [(_tree(document), str(start)) for document, start in result]


def _as_list(documents: list[Any], indent: int | None) -> str:
    return json.dumps(
        {"apiVersion": "v1", "items": documents, "kind": "List", "metadata": {}}, indent=indent
    )


@pytest.mark.parametrize("indent", [4, 2, None], ids=["indent-4", "indent-2", "compact"])
def test_a_fleet_as_kubectl_writes_it_reads_the_same_by_the_fast_path(indent):
    text = _as_list(fleet_documents(), indent)
    fast = jsonio.load_json(text, "f.json")
    assert fast is not None
    assert _read(fast) == _read(_yamlio(text))


@pytest.mark.slow
def test_the_catalog_as_json_reads_the_same_by_the_fast_path():
    files = catalog_files()
    assert files
    for path, documents in files.items():
        for indent in (4, None):
            text = json.dumps([d for d in documents if d is not None], indent=indent)
            fast = jsonio.load_json(text, "f.json")
            assert fast is not None, path
            assert _read(fast) == _read(_yamlio(text)), path


# Texts the fast path must leave to yamlio, with why; yamlio's answer stands.
LEFT_TO_YAMLIO = [
    ("yaml-flow", "{a: 1}"),
    ("yaml-block", "a: 1\n"),
    ("a-key-twice", '{"a": 1, "a": 2}'),
    ("a-key-twice-deep", '{"x": [{"a": 1, "b": 2, "a": 3}]}'),
    ("nan", '{"a": NaN}'),
    ("infinity", '{"a": [Infinity, -Infinity]}'),
    ("exponent", '{"a": 1e3}'),
    ("exponent-with-a-point", '{"a": 1.5E+3}'),
    ("long-integer", '{"a": ' + "9" * 101 + "}"),
    ("longer-integer-than-python", '{"a": ' + "9" * 5000 + "}"),
    ("long-float", '{"a": 1.' + "5" * 99 + "}"),
    ("surrogate-pair", '{"a": "\\ud83d\\ude00"}'),
    ("lone-surrogate", '{"a": "\\udc00"}'),
    ("raw-control-character", '{"a": "b\x01"}'),
    ("raw-delete", '{"a": "b\x7f"}'),
    ("raw-nel", '{"a": "b\x85c"}'),
    ("raw-line-separator", '{"a": "b\u2028c"}'),
    ("raw-paragraph-separator", '{"a": "b\u2029c"}'),
    ("noncharacter", '{"a": "\ufffe"}'),
    ("tab-between-tokens", '{"a":\t1}'),
    ("carriage-returns", '{"a": 1,\r\n"b": 2}\r\n'),
    ("lone-carriage-return", '{"a": 1,\r"b": 2}'),
    ("two-values", '{"a": 1}\n{"b": 2}\n'),
    ("trailing-text", '{"a": 1} x'),
    ("trailing-comma", '{"a": 1,}'),
    ("comment", '{"a": 1} # note'),
    ("top-level-string", '"a"'),
    ("top-level-null", "null"),
    ("empty", ""),
    ("only-spaces", "  \n "),
    ("nested-past-the-limit", "[" * 250 + "]" * 250),
    ("nested-to-the-limit", "[" * 200 + "]" * 200),
]


@pytest.mark.parametrize("text", [c[1] for c in LEFT_TO_YAMLIO], ids=[c[0] for c in LEFT_TO_YAMLIO])
def test_what_json_and_yaml_read_apart_is_left_to_yamlio(text):
    assert jsonio.load_json(text, "f.json") is None
    assert _read(_either(text)) == _read(_yamlio(text))


# Texts the fast path reads itself: the same as yamlio, value and place.
READ_FAST = [
    ("object", '{"a": 1, "b": [true, false, null], "c": {"d": "e"}}'),
    ("array", '[1, 2.5, -0, -0.0, "x", {}, []]'),
    ("escapes", '{"a": "\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\u0001 \\u2028"}'),
    ("unicode", '{"\u00e9t\u00e9": "\u65e5\u672c \U0001f600"}'),
    ("yaml-words-quoted", '{"yes": "no", "on": "off", "true": "null", "<<": {"b": 1}, "~": "1e3"}'),
    ("dates-and-versions", '{"a": "2024-01-01", "b": "1.10", "c": "0o17", "d": "012"}'),
    ("number-at-the-limit", '{"a": ' + "9" * 100 + "}"),
    ("nested-deep", "[" * 150 + "]" * 150),
    ("spaced-out", '\n\n   {\n  "a"  :  [ 1 ,\n 2 ]  ,"b":{}}\n\n'),
    ("keys-with-dots-and-slashes", '{"ome.io/deploymentMode": "MultiNode", "a.b[c]": 1}'),
]


@pytest.mark.parametrize("text", [c[1] for c in READ_FAST], ids=[c[0] for c in READ_FAST])
def test_what_json_reads_alike_is_read_fast_and_the_same(text):
    fast = jsonio.load_json(text, "f.json")
    assert fast is not None
    assert _read(fast) == _read(_yamlio(text))


_KEYS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=25,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    value=st.lists(_VALUES, max_size=3) | st.dictionaries(_KEYS, _VALUES, max_size=4),
    indent=st.sampled_from([None, 0, 1, 2, 4]),
    ascii_only=st.booleans(),
)
def test_any_json_reads_as_yamlio_reads_it(value, indent, ascii_only):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert _read(_either(text)) == _read(_yamlio(text))


def test_an_audit_of_json_is_the_same_by_either_reader(tmp_path, monkeypatch):
    path = tmp_path / "cluster.json"
    path.write_text(_as_list(fleet_documents(), 4))
    fast = run_cli("audit", str(path), "-o", "json")
    import modetable.inputs.sources

    monkeypatch.setattr(modetable.inputs.sources, "load_json", lambda text, name: None)
    slow = run_cli("audit", str(path), "-o", "json")
    assert fast == slow
    assert fast.code in (0, 1)
    assert '"at": "' + str(path) + ":" in fast.out
