"""A hand-edited rules file, broken every way hypothesis can think of: the
commands answer or refuse it in one line per problem, never with a traceback.

The fuzz starts from the shipped rules and deletes keys, swaps types and puts
odd strings (placeholders, newlines, other names) in; `rules check` and the
commands that read the rules run in-process with the last-resort handler off
(MODETABLE_DEBUG=1), so any unexpected exception fails with its traceback.
The cases below it are what the fuzz found, pinned.
"""

from __future__ import annotations

import copy
import functools
import os

import pytest
import yaml
from conftest import EXAMPLES, RULES, run_cli, write
from hostile_yaml import hostile_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Read at collection, in every worker: by libyaml where installed (the same safe
# loader, in C).
SHIPPED = yaml.load(RULES.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
FUZZ_EXAMPLES = int(os.environ.get("MODETABLE_FUZZ_EXAMPLES", "25"))
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize="MODETABLE_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# What a hand edit leaves in place of a value.
ODD_VALUES = [
    None, True, 0, -1, 1.5, "", " ", "{nope}", "{", "}", "{component}", "a\nb",
    "v1.3", "v9", "1.3", "MultiNode", "none", "-", "engine", [], {}, ["x"], {"a": 1},
]  # fmt: skip

# The commands that read the rules, on the page's example.
COMMANDS = [
    ["rules", "check", "--strict", "{rules}"],
    ["--rules", "{rules}", "select", "--isvc", "llama-3-70b", "-o", "json", str(EXAMPLES)],
    ["--rules", "{rules}", "explain", "--isvc", "llama-3-70b", "--why",
     "srt-llama-3-3-70b-instruct", str(EXAMPLES)],
    ["--rules", "{rules}", "effective", "--isvc", "llama-3-70b", str(EXAMPLES)],
    ["--rules", "{rules}", "match", "--isvc", "llama-3-70b", "--explain", str(EXAMPLES)],
    ["--rules", "{rules}", "audit", "--from", "v1.2.2", "-o", "yaml", str(EXAMPLES)],
    ["--rules", "{rules}", "rules", "diff", "v1.2.2", "v1.3"],
]  # fmt: skip


def _places(node, prefix=()):
    """The path of every key and list item under `node`."""
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return
    for key, value in items:
        yield (*prefix, key)
        yield from _places(value, (*prefix, key))


PLACES = list(_places(SHIPPED))


def _at(node, path):
    for part in path:
        node = node[part]
    return node


@st.composite
def edited_rules(draw) -> dict:
    """The shipped rules with one to three edits."""
    rules = copy.deepcopy(SHIPPED)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PLACES))
        try:
            parent = _at(rules, path[:-1])
            current = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed or replaced it
        if not isinstance(parent, dict | list):
            continue  # ... with a string, which a path can still index
        edit = draw(st.sampled_from(["delete", "odd", "wrap", "other"]))
        if edit == "delete":
            del parent[path[-1]]
        elif edit == "odd":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif edit == "wrap":
            parent[path[-1]] = [current]
        else:  # a value from elsewhere in the file
            parent[path[-1]] = copy.deepcopy(_at(SHIPPED, draw(st.sampled_from(PLACES))))
    return rules


def check_answer(argv: list[str], run) -> None:
    """Exit 0, 1 or 2; every stderr line a modetable line; 2 ends with an error."""
    assert run.code in (0, 1, 2), (argv, run.code, run.err)
    lines = run.err.splitlines()
    assert all(line.startswith("modetable: ") for line in lines), run.err
    if run.code == 2:
        assert lines and lines[-1].startswith("modetable: error: "), run.err


@pytest.fixture(autouse=True)
def _no_last_resort(monkeypatch):
    monkeypatch.setenv("MODETABLE_DEBUG", "1")


def _dump(node) -> str:
    return yaml.safe_dump(node, sort_keys=False)


def _same(a, b) -> bool:
    """Equal, and of the same types all the way down (1, 1.0 and True are not
    the same here: each is written differently)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b


def _children(value) -> list:
    return list(value.items() if isinstance(value, dict) else enumerate(value))


def _child_text(key: str, value, child_key, child) -> str:
    """The lines one entry of the section `key` takes in the dump, under `key:`."""
    one = {child_key: child} if isinstance(value, dict) else [child]
    return _dump({key: one})[len(f"{key}:\n") :]


@functools.cache  # made in the worker that runs these tests, not at every collection
def _shipped_texts() -> tuple[dict, dict]:
    """Each section of the shipped rules as their dump writes it, and, for each
    section whose dump is its entries' own dumps one after the other (no entry
    shares a node with another), each entry's lines."""
    whole, sections, entries = _dump(SHIPPED), {}, {}
    # A section starts with its key at the start of a line, as nothing else does.
    starts = [0]
    for key in list(SHIPPED)[1:]:
        starts.append(whole.find(f"\n{key}:", starts[-1]) + 1)
    for key, start, end in zip(SHIPPED, starts, [*starts[1:], len(whole)], strict=True):
        sections[key] = whole[start:end]
    for key, value in SHIPPED.items():
        if isinstance(value, dict | list) and value:
            texts = {k: _child_text(key, value, k, child) for k, child in _children(value)}
            if sections[key] == f"{key}:\n" + "".join(texts.values()):
                entries[key] = texts
    return sections, entries


def dump_rules(rules: dict) -> str:
    """`yaml.safe_dump(rules, sort_keys=False)`, byte for byte, at a fraction of
    its cost: the edits change one to three places, so the sections and entries
    equal to the shipped ones are taken from the shipped rules' dump, and only
    the others are dumped. PyYAML numbers anchors across the document: when
    more than one piece holds one, the whole is dumped."""
    section_texts, entry_texts = _shipped_texts()
    pieces = []
    for key, value in rules.items():
        shipped = SHIPPED.get(key)
        if key in section_texts and _same(value, shipped):
            pieces.append(section_texts[key])
        elif key in entry_texts and type(value) is type(shipped) and value:
            texts = entry_texts[key]
            pieces.append(f"{key}:\n")
            for child_key, child in _children(value):
                if child_key in texts and _same(child, shipped[child_key]):
                    pieces.append(texts[child_key])
                else:
                    pieces.append(_child_text(key, value, child_key, child))
        else:
            pieces.append(_dump({key: value}))
    if sum("&id" in piece for piece in pieces) > 1:
        return _dump(rules)
    return "".join(pieces)


@pytest.mark.parametrize(
    "edits",
    [
        [],
        [
            (("messages", "mode_mismatch", "text"), "a\nb"),
            (("messages", "parent_not_found"), None),
            (("selection", "checks", 0), True),
            (("admission", 0, "id"), 1),
            (("findings",), []),
            (("modes",), None),
        ],
        # An anchored node of `admission` copied into another section: two anchors.
        [(("docs", "x"), "admission")],
    ],
)
def test_dump_rules_writes_what_safe_dump_writes(edits):
    rules = copy.deepcopy(SHIPPED)
    for path, value in edits:
        if value == "admission":
            value = copy.deepcopy(rules["admission"])
        if value is None:
            del _at(rules, path[:-1])[path[-1]]
        else:
            _at(rules, path[:-1])[path[-1]] = value
    assert dump_rules(rules) == _dump(rules)


@pytest.mark.slow
@FUZZ
@given(rules=edited_rules(), command=st.sampled_from(COMMANDS))
def test_any_edit_of_the_rules_gets_an_answer_or_one_line_per_problem(tmp_path, rules, command):
    path = write(tmp_path, "modes.yaml", dump_rules(rules))
    argv = [part.replace("{rules}", str(path)) for part in command]
    check_answer(argv, run_cli(*argv))


RULES_TEXT = RULES.read_text()


# Each example composes and writes the whole rules file anew: half as many.
@pytest.mark.slow
@settings(FUZZ, max_examples=max(FUZZ_EXAMPLES // 2, 1))
@given(data=st.data(), command=st.sampled_from(COMMANDS))
def test_tags_numbers_and_aliases_on_any_node_of_the_rules(tmp_path, data, command):
    """The shipped rules with a tag on any node (one that does not fit, or one no
    loader builds), a number of any length, or an alias fanning out: refused at
    their place or answered, never an internal error."""
    path = write(tmp_path, "modes.yaml", data.draw(hostile_text(RULES_TEXT, edits=2)))
    argv = [part.replace("{rules}", str(path)) for part in command]
    check_answer(argv, run_cli(*argv))


def _edited(tmp_path, path: tuple, value=None, *, delete: bool = False, base=None):
    rules = copy.deepcopy(SHIPPED) if base is None else yaml.safe_load(base.read_text())
    parent = _at(rules, path[:-1])
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return write(tmp_path, "modes.yaml", yaml.safe_dump(rules, sort_keys=False))


def _line_of(path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_message_params_that_are_not_a_list_are_one_error(tmp_path):
    rules = _edited(tmp_path, ("messages", "parent_not_found", "params"), 5)
    run = run_cli("--rules", str(rules), "explain", "--isvc", "llama-3-70b", str(EXAMPLES))
    line = _line_of(rules, "params: 5")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"modetable: error: {rules}:{line}:13: messages.parent_not_found.params: "
        "expected a list, got the number 5\n"  # no hint to quote it: a string is no list
    )


# Mappings the engine looks words up in by fixed keys: a key left out is refused
# when the file is loaded, not met as a KeyError halfway through an answer.
@pytest.mark.parametrize(
    ("mapping", "key"),
    [
        (("manifests", "scope_labels"), "cluster"),
        (("selection", "scope_words"), "namespace"),
        (("selection", "formats", "sides"), "framework"),
        (("selection", "formats", "attributes"), "quantization"),
        (("selection", "sizes", "shown"), "max"),
        (("selection", "sizes", "missing"), "min"),
        (("selection", "explain", "words"), "not_reached"),
        (("docs", "declaration_table", "counts"), "never"),
        (("docs", "placeholders"), "isvc_field"),
    ],
)
def test_a_word_the_engine_looks_up_cannot_be_left_out(tmp_path, mapping, key):
    rules = _edited(tmp_path, (*mapping, key), delete=True)
    run = run_cli("--rules", str(rules), "select", "--isvc", "llama-3-70b", str(EXAMPLES))
    assert (run.code, run.out) == (2, "")
    [error] = run.err.splitlines()
    assert error.startswith(f"modetable: error: {rules}:")
    assert error.endswith(f": missing key {key!r} (modetable uses it)")


@pytest.mark.parametrize(
    ("template", "error"),
    [
        ("{min} to {nope}", "placeholder {nope} is not one this template is given ({min}, {max})"),
        ("{min}, {max", "expected '}' before end of string"),
    ],
)
def test_the_size_range_template_is_checked_at_load(tmp_path, template, error):
    rules = _edited(tmp_path, ("selection", "sizes", "range"), template)
    run = run_cli("--rules", str(rules), "select", "--isvc", "llama-3-70b", str(EXAMPLES))
    line = _line_of(rules, "    range: ")
    expected = f"modetable: error: {rules}:{line}:12: {error}\n"
    assert (run.code, run.out, run.err) == (2, "", expected)


def test_a_name_with_a_newline_stays_on_its_error_line(tmp_path):
    rules = _edited(tmp_path, ("matching", "rows", 1, "id"), "a\nb")
    run = run_cli("--rules", str(rules), "select", "--isvc", "llama-3-70b", str(EXAMPLES))
    assert (run.code, run.out) == (2, "")
    lines = run.err.splitlines()
    assert lines and all(line.startswith("modetable: error: ") for line in lines), run.err
    # The newline is shown escaped, as every character that would break the line.
    assert any("unknown row 'declared-none' (known: requested-none, a\\nb," in x for x in lines)


def test_a_check_with_no_message_is_refused_at_load(tmp_path):
    """Not met halfway: the audit's pruning runs the score check on runtimes that
    `select` stops at an earlier check, so the two would part ways (it asserted)."""
    rules = _edited(tmp_path, ("selection", "checks", 6, "message"), delete=True)
    line = _line_of(rules, "- id: score")
    error = (
        f"modetable: error: {rules}:{line}:5: a score check names the message its failure gives\n"
    )
    select = run_cli("--rules", str(rules), "select", "--isvc", "llama-3-70b", str(EXAMPLES))
    audit = run_cli("--rules", str(rules), "audit", str(EXAMPLES))
    assert (select.code, select.out, select.err) == (2, "", error)
    assert (audit.code, audit.out, audit.err) == (2, "", error)


def test_an_allowed_values_check_without_its_source_is_refused_at_load(tmp_path):
    # A webhook check made an allowed_values check, with its message and no source.
    check = {"id": "decoder-requires-engine", "stage": "webhook", "check": "allowed_values"}
    message = {"origin": "ome", "text": "{value}: {supported}", "params": ["value", "supported"]}
    at = next(i for i, c in enumerate(SHIPPED["admission"]) if c["id"] == check["id"])
    rules = _edited(tmp_path, ("admission", at), {**check, "message": "unsupported_value"})
    rules = _edited(tmp_path, ("messages", "unsupported_value"), message, base=rules)
    run = run_cli("--rules", str(rules), "admit", "--isvc", "llama-3-70b", str(EXAMPLES))
    line = _line_of(rules, "- id: decoder-requires-engine")
    assert (run.code, run.out, run.err) == (
        2,
        "",
        f"modetable: error: {rules}:{line}:3: an allowed_values check names the source "
        "whose value it checks\n",
    )
