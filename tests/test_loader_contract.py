"""The loader's contract: what any loader of modetable's inputs must refuse, and
with which message at which place (yamlio's docstring lists it).

Each case runs against every loader in LOADERS; a faster parse path (JSON read
by the json module, another YAML parser) joins the list and is held to the same
answers. A loader is a function `(text, file_name) -> [(document, start)]` that
raises ModetableError; the budget of alias nodes is the run's (yamlio.one_run).
"""

from __future__ import annotations

import pytest

from modetable.errors import ModetableError
from modetable.parsing import jsonio, yamlio


def _json_first(text: str, file_name: str) -> list:
    """What sources.read_documents does: the json module's reading when it
    answers (jsonio), yamlio's otherwise."""
    found = jsonio.load_json(text, file_name)
    return found if found is not None else yamlio.load_documents(text, file_name)


LOADERS = {"yamlio": yamlio.load_documents, "jsonio": _json_first}
LIBYAML = yamlio._BaseLoader.__name__ == "CSafeLoader"

REFUSED_TAG = (
    "the YAML tag {} is not supported: modetable reads only mappings, lists, strings, "
    "numbers, booleans and null"
)

LONG = "a number of {} characters is longer than the limit of 100; quote it to make it a string"
NEEDS = "the YAML tag {} needs {}, not {}"
CONTROL = "invalid YAML: the control character U+{} is not allowed"
NOT_JSON = "is not a JSON value: JSON, and so Kubernetes, has no NaN or infinity"

# (id, text, the whole error: FILE:LINE:COL: message)
REFUSED = [
    ("float-tag-on-word", "spec: {disabled: !!float abc}\n", "f:1:18: 'abc' is not a !!float"),
    ("bool-tag-on-word", "a: !!bool maybe\n", "f:1:4: 'maybe' is not a !!bool"),
    ("int-tag-on-word", "a: !!int abc\n", "f:1:4: 'abc' is not a !!int"),
    ("int-tag-on-float", "a: !!int 1.5\n", "f:1:4: '1.5' is not a !!int"),
    ("null-tag-on-word", "a: !!null abc\n", "f:1:4: 'abc' is not a !!null"),
    ("map-tag-on-list", "a: !!map [1]\n", "f:1:4: " + NEEDS.format("!!map", "a mapping", "a list")),
    ("map-tag-on-scalar", "a: !!map x\n",
     "f:1:4: " + NEEDS.format("!!map", "a mapping", "a scalar")),
    ("seq-tag-on-mapping", "a: !!seq {b: 1}\n",
     "f:1:4: " + NEEDS.format("!!seq", "a list", "a mapping")),
    ("str-tag-on-mapping", "a: !!str {b: 1}\n",
     "f:1:4: " + NEEDS.format("!!str", "a scalar", "a mapping")),
    ("int-tag-on-list", "a: !!int [1]\n", "f:1:4: " + NEEDS.format("!!int", "a scalar", "a list")),
    ("timestamp-tag-on-list", "a: !!timestamp [1]\n",
     "f:1:4: " + NEEDS.format("!!timestamp", "a scalar", "a list")),
    ("tag-on-a-key", "!!float k: 1\n", "f:1:1: 'k' is not a !!float"),
    ("tag-on-the-document", "!!seq {a: 1}\n",
     "f:1:1: " + NEEDS.format("!!seq", "a list", "a mapping")),
    ("python-tag", "a: !!python/name:os.system x\n",
     "f:1:4: " + REFUSED_TAG.format("!!python/name:os.system")),
    ("local-tag", "a: !Ref x\n", "f:1:4: " + REFUSED_TAG.format("!Ref")),
    ("set-tag", "a: !!set {x}\n", "f:1:4: " + REFUSED_TAG.format("!!set")),
    ("binary-tag", "a: !!binary aGk=\n", "f:1:4: " + REFUSED_TAG.format("!!binary")),
    ("long-integer", "a: " + "9" * 101 + "\n", "f:1:4: " + LONG.format(101)),
    ("long-integer-past-python", "a: " + "9" * 5000 + "\n", "f:1:4: " + LONG.format(5000)),
    ("long-float", "a: 1." + "5" * 99 + "\n", "f:1:4: " + LONG.format(101)),
    ("long-tagged-number", "a: !!int '" + "1" * 200 + "'\n", "f:1:4: " + LONG.format(200)),
    # libyaml refuses the escape itself; PyYAML's own scanner reads it, and the loader refuses it.
    ("lone-surrogate", 'a: "\\ud800"\n',
     "f:1:7: invalid YAML: found invalid Unicode character escape code" if LIBYAML else
     "f:1:4: the string holds U+D800, which is not a character (a lone surrogate)"),
    # NaN and the infinities are YAML's floats, not JSON's: kubectl refuses them.
    ("nan", "a: .nan\n", "f:1:4: the number .nan " + NOT_JSON),
    ("infinity", "a: [1, -.Inf]\n", "f:1:8: the number -.Inf " + NOT_JSON),
    ("tagged-infinity", "a: !!float .inf\n", "f:1:4: the number .inf " + NOT_JSON),
    ("duplicate-key", "a: 1\nb: 2\na: 3\n", "f:3:1: duplicate key 'a' (first at line 1)"),
    ("duplicate-key-as-written", "yes: 1\ntrue: 2\n",
     "f:2:1: duplicate key 'true' (first at line 1)"),
    ("duplicate-long-key", "1" * 60 + ": 1\n" + "1" * 60 + ": 2\n",
     "f:2:1: duplicate key '1111111111111111111111111111111111111...' (first at line 1)"),
    ("duplicate-key-with-escape", '"a\\x1bb": 1\n"a\\x1bb": 2\n',
     "f:2:1: duplicate key 'a\\x1bb' (first at line 1)"),
    # Every key of a mapping is checked before any of its values is built.
    ("duplicate-key-before-its-values", "a: !!int x\na: 1\n",
     "f:2:1: duplicate key 'a' (first at line 1)"),
    ("complex-key", "? [a]\n: 1\n", "f:1:3: a mapping key must be a string, not a list or mapping"),
    ("self-alias", "a: &x [1, *x]\n", "f:1:4: YAML alias refers to a node that holds it"),
    ("self-alias-at-the-root", "&x [1, *x]\n", "f:1:1: YAML alias refers to a node that holds it"),
    ("control-character", "a: b\x01\n", "f:1:5: " + CONTROL.format("0001")),
    ("control-character-after-cr-lines", "a: b\rc: d\re: \x02\n",
     "f:3:4: " + CONTROL.format("0002")),
    ("control-character-after-crlf-lines", "a: b\r\nc: \x02\n", "f:2:4: " + CONTROL.format("0002")),
]  # fmt: skip

# (id, text, what it loads as): what the contract does not refuse.
ACCEPTED = [
    ("float-tag-on-integer", "a: !!float 1\n", {"a": 1.0}),
    ("str-tag-on-number", "a: !!str 1\n", {"a": "1"}),
    ("bool-tag-on-yes", "a: !!bool yes\n", {"a": True}),
    ("null-tag-on-tilde", "a: !!null ~\n", {"a": None}),
    ("map-tag-on-mapping", "a: !!map {b: 1}\n", {"a": {"b": 1}}),
    ("seq-tag-on-list", "a: !!seq [1]\n", {"a": [1]}),
    ("integer-at-the-limit", "a: " + "9" * 100 + "\n", {"a": int("9" * 100)}),
    ("long-quoted-number", "a: '" + "9" * 5000 + "'\n", {"a": "9" * 5000}),
    ("date", "a: 2024-01-01\n", {"a": "2024-01-01"}),
    ("plain-equals-sign", "a: =\n", {"a": "="}),
    ("quoted-nan", "a: '.nan'\nb: NaN\n", {"a": ".nan", "b": "NaN"}),
    ("merge-key", "b: &b {x: 1}\nc: {<<: *b, y: 2}\n", {"b": {"x": 1}, "c": {"x": 1, "y": 2}}),
    ("escaped-character", 'a: "\\U0001F600"\n', {"a": "\U0001f600"}),
]


@pytest.mark.parametrize("load", LOADERS.values(), ids=LOADERS.keys())
@pytest.mark.parametrize(("text", "error"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_the_contract_refuses(load, text, error):
    with pytest.raises(ModetableError) as caught:
        load(text, "f")
    assert str(caught.value) == error


@pytest.mark.parametrize("load", LOADERS.values(), ids=LOADERS.keys())
@pytest.mark.parametrize(("text", "value"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_the_contract_accepts(load, text, value):
    [(document, _)] = load(text, "f")
    assert document == value


def _aliased(name: str, keys: int, references: int) -> str:
    """A document whose `refs` aliases one mapping of `keys` keys `references` times:
    about keys * references nodes from a few kilobytes."""
    base = "{" + ", ".join(f"k{i}: {i}" for i in range(keys)) + "}"
    refs = "{" + ", ".join(f"r{i}: *{name}" for i in range(references)) + "}"
    return f"base: &{name} {base}\nrefs: {refs}\n"


@pytest.mark.parametrize("load", LOADERS.values(), ids=LOADERS.keys())
def test_the_alias_budget_is_shared_by_every_input_of_a_run(load, monkeypatch):
    """Each input alone is within the budget; together they are not."""
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", 25_000)
    text = _aliased("m", 100, 100)  # adds 100 * 100 = 10,000 nodes
    with yamlio.one_run():
        load(text, "a.yaml")
        load(text, "b.yaml")
        with pytest.raises(ModetableError) as caught:
            load(text, "c.yaml")
    assert str(caught.value) == (
        "c.yaml:1:1: YAML aliases add more than 25000 nodes in all inputs together "
        "(aliases repeated too often)"
    )
    # Outside a run, each load has a budget of its own.
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        load(text, name)


@pytest.mark.parametrize("load", LOADERS.values(), ids=LOADERS.keys())
def test_documents_of_one_input_share_the_budget(load, monkeypatch):
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", 25_000)
    text = "\n---\n".join(_aliased("m", 100, 100) for _ in range(3))
    with pytest.raises(ModetableError) as caught:
        load(text, "f")
    assert str(caught.value).startswith("f:9:1: YAML aliases add more than 25000 nodes")


@pytest.mark.parametrize("load", LOADERS.values(), ids=LOADERS.keys())
def test_what_is_written_out_costs_nothing_from_the_budget(load, monkeypatch):
    """Only what aliases add counts: a large input without aliases is not refused."""
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", 10)
    text = "items: [" + ", ".join(f"{{a: {i}, b: [x, y]}}" for i in range(2000)) + "]\n"
    with yamlio.one_run():
        for name in ("a", "b", "c"):
            [(document, _)] = load(text, name)
            assert len(document["items"]) == 2000


def test_a_run_inside_a_run_shares_its_budget(monkeypatch):
    """The API's load opens a run; inside a command's run it is that run's."""
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", 15_000)
    text = _aliased("m", 100, 100)
    with yamlio.one_run() as outer:
        yamlio.load_documents(text, "a.yaml")
        with yamlio.one_run() as inner:
            assert inner is outer
            with pytest.raises(ModetableError):
                yamlio.load_documents(text, "b.yaml")


# Plain scalars that YAML 1.1's implicit resolvers read each way, and words
# beginning with each resolver's first characters that they do not.
_WORDS = """~ null Null NULL nul n N no No NO nO y yes Yes on On off OFF true True TRUE tRue false
    False name 0 7 -1 +1 0x1F 0o17 017 0b101 1_000 1:30 190:20:30 1.5 -.5 +1.5e3 1e3
    6.8523015e+5 .inf -.Inf +.INF .nan .NaN . - + 1.2.3 2001-12-14 2001-12-14t21:59:43.10-05:00
    2001-1-1 12:00 << < = == !x &a *b v1.3 ñ"""
_PLAIN = ["", "a b", "\U0001f600", *_WORDS.split()]


def test_the_readers_resolver_answers_as_pyyamls():
    """The reader's loader has a resolver of its own, cheaper (the composer calls
    it for every node): it gives the tag PyYAML's gives, for each kind of node
    and each scalar, plain or quoted."""
    import yaml

    ours, theirs = yamlio._Loader(""), yamlio._BaseLoader("")
    assert not yamlio._BaseLoader.yaml_path_resolvers
    for kind in (yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode):
        for value in _PLAIN if kind is yaml.ScalarNode else [None]:
            for implicit in ((True, False), (False, True), (False, False)):
                expected = yaml.resolver.BaseResolver.resolve(theirs, kind, value, implicit)
                assert ours.resolve(kind, value, implicit) == expected, (kind, value, implicit)
    ours.dispose()
    theirs.dispose()
