"""Hypothesis strategies that turn valid YAML text hostile at the node level:
explicit tags on any node, numbers of any length, and aliases that expand.

They work on the composed node graph (yaml.compose_all), so every node of a
document can be reached, keys and whole documents included, and serialise it
back: a shared node comes out as an anchor and its aliases, a tag that does not
fit its node is written out as given.
"""

from __future__ import annotations

import functools
import pickle

import yaml
from hypothesis import strategies as st

YAML_TAG = "tag:yaml.org,2002:"
TAGS = [
    *(YAML_TAG + name for name in ("str", "int", "float", "bool", "null", "map", "seq")),
    *(YAML_TAG + name for name in ("timestamp", "binary", "set", "omap", "merge", "value")),
    YAML_TAG + "python/name:os.system",
    "!Ref",
]


def _nodes(documents: list[yaml.Node]) -> list[yaml.Node]:
    """Every node of the documents, each once, in document order."""
    found: list[yaml.Node] = []
    seen: set[int] = set()
    pending = list(reversed(documents))
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        found.append(node)
        if isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                pending += [value, key]
        elif isinstance(node, yaml.SequenceNode):
            pending += reversed(node.value)
    return found


def _slots(nodes: list[yaml.Node]) -> list[tuple[yaml.Node, int, int | None]]:
    """Where a value can be put: (container, index, position in the key/value pair)."""
    slots: list[tuple[yaml.Node, int, int | None]] = []
    for node in nodes:
        if isinstance(node, yaml.MappingNode):
            slots += [(node, index, 1) for index in range(len(node.value))]
        elif isinstance(node, yaml.SequenceNode):
            slots += [(node, index, None) for index in range(len(node.value))]
    return slots


def _put(slot: tuple[yaml.Node, int, int | None], value: yaml.Node) -> None:
    container, index, side = slot
    if side is None:
        container.value[index] = value
    else:
        key, _ = container.value[index]
        container.value[index] = (key, value)


def number_text(digits: int, kind: str) -> str:
    """A number written with about `digits` digits: an integer, a float, signed."""
    body = "9" * digits
    if kind == "float":
        return "1." + body
    if kind == "negative":
        return "-" + body
    return body


numbers = st.tuples(
    st.one_of(st.integers(1, 30), st.integers(90, 110), st.integers(4000, 6000)),
    st.sampled_from(["int", "float", "negative"]),
)


@functools.lru_cache(maxsize=4)
def _composed(text: str) -> bytes:
    """The documents of `text`, composed once and pickled: each draw edits its
    own unpickled copy. PyYAML's composer is most of a draw's cost on a text as
    long as the rules, which a fuzzer gives every draw; unpickling is a tenth."""
    return pickle.dumps([d for d in yaml.compose_all(text) if d is not None])


@st.composite
def hostile_text(draw, text: str, *, edits: int = 3) -> str:
    """`text` with one to `edits` node-level edits: a tag, a long number, an alias."""
    documents = pickle.loads(_composed(text))
    for _ in range(draw(st.integers(1, edits))):
        nodes = _nodes(documents)
        edit = draw(st.sampled_from(["tag", "number", "alias", "fan"]))
        if edit == "tag":
            node = draw(st.sampled_from(nodes))
            node.tag = draw(st.sampled_from(TAGS))
        elif edit == "number":
            scalars = [n for n in nodes if isinstance(n, yaml.ScalarNode)]
            if scalars:
                node = draw(st.sampled_from(scalars))
                digits, kind = draw(numbers)
                node.value = number_text(digits, kind)
                node.tag = YAML_TAG + ("float" if kind == "float" else "int")
                node.style = None
        else:
            slots = _slots(nodes)
            containers = [n for n in nodes if isinstance(n, yaml.MappingNode | yaml.SequenceNode)]
            if not slots or not containers:
                continue
            shared = draw(st.sampled_from(containers))
            if edit == "fan":
                # A list of `width` references to the one before, `depth` times:
                # width ** depth copies of `shared` from a few lines of text.
                width, depth = draw(st.integers(2, 30)), draw(st.integers(1, 5))
                for _ in range(depth):
                    shared = yaml.SequenceNode(YAML_TAG + "seq", [shared] * width)
            _put(draw(st.sampled_from(slots)), shared)
    return yaml.serialize_all(documents, allow_unicode=True, width=1_000_000) if documents else text
