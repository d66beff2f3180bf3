"""Every argument of the Python API, given a wrong type or a bad value (issue
28): a wrong type is a `TypeError` that names the argument and what it takes,
a bad value a `ModetableError` with its code; never another exception
(docs/api.md, "Errors and warnings", lists them). One table over the public
surface: every function, method and constructor of `modetable.__all__` that
takes an argument."""

from __future__ import annotations

import enum
import inspect
import io
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from conftest import EXAMPLES, RULES, isvc_doc

import modetable

ISVC = "llama-demo/llama-3-70b"
RUNTIME = "srt-llama-3-3-70b-instruct"


@attrs.frozen
class Api:
    """What the calls of the table are made with."""

    rules: modetable.Rules
    policy: modetable.Policy
    cluster: modetable.Cluster
    audit: modetable.AuditResult


@pytest.fixture(scope="module")
def api() -> Api:
    rules = modetable.load_rules(RULES)
    policy = rules.at("v1.3")
    cluster = modetable.Cluster.from_paths(EXAMPLES, rules=policy)
    return Api(rules, policy, cluster, modetable.audit_cluster(policy, cluster))


class _BytesPath(os.PathLike):
    def __fspath__(self) -> bytes:
        return b"rules/modes.yaml"


# The wrong types every argument is given (each argument's own table adds None
# where it is not allowed): the name `type()` gives in the message.
WRONG = [(13, "int"), (1.5, "float"), (b"x", "bytes"), (["x"], "list"), (True, "bool")]
NOT_NAMES = [
    ("", "{} is empty"),
    ("a\0b", "{} 'a\\0b' is not a Kubernetes name (it holds spaces or control characters)"),
    (
        "two words",
        "{} 'two words' is not a Kubernetes name (it holds spaces or control characters)",
    ),
    ("\ud800x", "{} holds U+D800, which is not a character (a lone surrogate)"),
    ("x\udc80", "{} holds U+DC80, which is not a character (a lone surrogate)"),
]
SURROGATE = "which is not a character (a lone surrogate)"

# (id, call, exception, the whole message, the ModetableError's code)
Case = tuple[str, Callable[[Api], Any], type, str, str | None]
CASES: list[Case] = []


def case(name: str, call: Callable[[Api], Any], exc: type, message: str, code: str | None = None):
    CASES.append((name, call, exc, message, code))


def wrong_types(name: str, call: Callable[[Api, Any], Any], expected: str, *extra: Any) -> None:
    """`name` given each wrong type: `NAME must be EXPECTED, got TYPE`."""
    argument = name.split(":")[-1]
    given = [*WRONG, *((v, type(v).__name__) for v in extra)]
    if expected == "True or False":
        given = [(v, shown) for v, shown in given if v is not True]
    for value, shown in given:
        case(
            f"{name}={shown}",
            lambda api, value=value: call(api, value),
            TypeError,
            f"{argument} must be {expected}, got {shown}",
        )


def not_names(name: str, call: Callable[[Api, Any], Any]) -> None:
    """`name` given a str that no Kubernetes name is."""
    argument = name.split(":")[-1]
    for value, message in NOT_NAMES:
        case(
            f"{name}={value!r}",
            lambda api, value=value: call(api, value),
            modetable.ModetableError,
            message.format(argument),
            "bad-input",
        )


def bad_paths(name: str, call: Callable[[Api, Any], Any], *extra: Any) -> None:
    """A path given as bytes, or one no file can have."""
    argument = name.split(":")[-1]
    path = "a str or os.PathLike[str] (a path)"
    wrong_types(name, call, path, *extra)
    case(
        f"{name}=PathLike-of-bytes",
        lambda api: call(api, _BytesPath()),
        TypeError,
        f"{argument} must be {path}, got an os.PathLike of bytes",
    )
    for value, message in (
        ("", f"{argument} is empty"),
        ("a\0b", "a\\0b: cannot read: a path cannot hold a NUL character"),
        ("\ud800", f"\\ud800: cannot read: the path holds U+D800, {SURROGATE}"),
        (Path("x\udfffy"), f"x\\udfffy: cannot read: the path holds U+DFFF, {SURROGATE}"),
    ):
        case(
            f"{name}={value!r}",
            lambda api, value=value: call(api, value),
            modetable.ModetableError,
            message,
            "cannot-read",
        )


# --- load_rules, Rules, Policy ------------------------------------------------------

bad_paths("load_rules:path", lambda api, v: modetable.load_rules(v))
wrong_types("Rules.at:version", lambda api, v: api.rules.at(v), "a str or None")
for version, shown in (("", "''"), ("a\0b", "'a\\0b'"), ("\ud800", "'\\ud800'")):
    case(
        f"Rules.at:version={version!r}",
        lambda api, version=version: api.rules.at(version),
        modetable.ModetableError,
        f"{shown} is not an OME version (write it like v1.3.1)",
        "bad-version",
    )

# --- Cluster ------------------------------------------------------------------------

bad_paths("Cluster.from_paths:paths[0]", lambda api, v: modetable.Cluster.from_paths(v), None)
bad_paths(
    "Cluster.from_paths:paths[1]",
    lambda api, v: modetable.Cluster.from_paths(EXAMPLES, v, rules=api.policy),
    None,
)
for method in ("from_paths", "from_objects"):
    first = EXAMPLES if method == "from_paths" else []
    made = getattr(modetable.Cluster, method)
    wrong_types(
        f"Cluster.{method}:rules",
        lambda api, v, made=made, first=first: made(first, rules=v),
        "a modetable.Rules or Policy",
        "v1.3",
    )
    wrong_types(
        f"Cluster.{method}:lenient",
        lambda api, v, made=made, first=first: made(first, rules=api.policy, lenient=v),
        "True or False",
        None,
        0,
        "yes",
    )
for value, shown in [*WRONG[:3], (None, "NoneType"), ("text", "str"), (True, "bool")]:
    case(
        f"Cluster.from_objects:objects={shown}",
        lambda api, value=value: modetable.Cluster.from_objects(value, rules=api.policy),
        TypeError,
        f"objects must be an iterable of objects (dicts), got {shown}",
    )
# live=None is no live objects; anything else must be objects, as `objects`.
for value, shown in [*WRONG[:3], ("text", "str"), (True, "bool")]:
    case(
        f"Cluster.from_objects:live={shown}",
        lambda api, value=value: modetable.Cluster.from_objects([], rules=api.policy, live=value),
        TypeError,
        f"live must be an iterable of objects (dicts), got {shown}",
    )
bad_paths(
    "Cluster.from_paths:live[0]",
    lambda api, v: modetable.Cluster.from_paths(EXAMPLES, rules=api.policy, live=[v]),
    None,
)

# --- select, effective, admit, match ------------------------------------------------

DECIDE = ("select", "effective", "admit", "match")
for function in DECIDE:
    decide = getattr(modetable, function)
    wrong_types(
        f"{function}:policy",
        lambda api, v, decide=decide: decide(v, api.cluster, ISVC),
        "a modetable.Policy (from load_rules().at())",
        None,
        "v1.3",
    )
    case(
        f"{function}:policy=Rules",
        lambda api, decide=decide: decide(api.rules, api.cluster, ISVC),
        TypeError,
        "policy must be a modetable.Policy (from load_rules().at()), got Rules",
    )
    wrong_types(
        f"{function}:cluster",
        lambda api, v, decide=decide: decide(api.policy, v, ISVC),
        "a modetable.Cluster (from Cluster.from_paths or from_objects)",
        None,
        [],
    )
    wrong_types(
        f"{function}:isvc",
        lambda api, v, decide=decide: decide(api.policy, api.cluster, v),
        "NAMESPACE/NAME or the object (a mapping)",
        None,
    )
    not_names(f"{function}:isvc", lambda api, v, decide=decide: decide(api.policy, api.cluster, v))
for function in ("effective", "match"):
    decide = getattr(modetable, function)
    wrong_types(
        f"{function}:runtime",
        lambda api, v, decide=decide: decide(api.policy, api.cluster, ISVC, runtime=v),
        "a str or None",
    )
    not_names(
        f"{function}:runtime",
        lambda api, v, decide=decide: decide(api.policy, api.cluster, ISVC, runtime=v),
    )

# An InferenceService given as an object holds only what JSON can.
GIVEN = "InferenceService ns/svc (the isvc argument)"
for value, where, message, code in (
    ({None: 1}, "spec", "a mapping key must be a string, not null", "wrong-type"),
    ({True: 1}, "spec", "a mapping key must be a string, not the boolean true", "wrong-type"),
    ({3: 1}, "spec", "a mapping key must be a string, not the number 3", "wrong-type"),
    ({"\udc80": 1}, "spec", f"a key holds U+DC80, {SURROGATE}", "bad-input"),
    ({"w": "\ud800"}, "spec.w", f"the string holds U+D800, {SURROGATE}", "bad-input"),
    (
        {"w": math.nan},
        "spec.w",
        "the number nan is not a JSON value: JSON, and so Kubernetes, has no NaN or infinity",
        "bad-input",
    ),
    (
        {"w": [-math.inf]},
        "spec.w[0]",
        "the number -inf is not a JSON value: JSON, and so Kubernetes, has no NaN or infinity",
        "bad-input",
    ),
):
    for function in DECIDE:
        decide = getattr(modetable, function)
        case(
            f"{function}:isvc={value!r}",
            lambda api, value=value, decide=decide: decide(
                api.policy, api.cluster, {**isvc_doc(), "spec": {"model": {"name": "m"}, **value}}
            ),
            modetable.ModetableError,
            f"{GIVEN} at {where}: {message}",
            code,
        )

# --- audit_cluster and its result ---------------------------------------------------

wrong_types(
    "audit_cluster:policy",
    lambda api, v: modetable.audit_cluster(v, api.cluster),
    "a modetable.Policy (from load_rules().at())",
    None,
)
wrong_types(
    "audit_cluster:cluster",
    lambda api, v: modetable.audit_cluster(api.policy, v),
    "a modetable.Cluster (from Cluster.from_paths or from_objects)",
    None,
)
wrong_types(
    "audit_cluster:namespace",
    lambda api, v: modetable.audit_cluster(api.policy, api.cluster, namespace=v),
    "a str or None",
)
not_names(
    "audit_cluster:namespace",
    lambda api, v: modetable.audit_cluster(api.policy, api.cluster, namespace=v),
)
wrong_types(
    "audit_cluster:candidates",
    lambda api, v: modetable.audit_cluster(api.policy, api.cluster, candidates=v),
    "True or False",
    None,
    0,
    "yes",
)
for value, shown in (*WRONG[:3], ("mode/*", "str"), (True, "bool"), (None, "NoneType")):
    case(
        f"audit_cluster:ignore={shown}",
        lambda api, value=value: modetable.audit_cluster(api.policy, api.cluster, ignore=value),
        TypeError,
        f"ignore must be a sequence of str (finding id globs), got {shown}",
    )
case(
    "audit_cluster:ignore=[13]",
    lambda api: modetable.audit_cluster(api.policy, api.cluster, ignore=["mode/*", 13]),
    TypeError,
    "ignore[1] must be a str, got int",
)
case(
    "audit_cluster:ignore=['']",
    lambda api: modetable.audit_cluster(api.policy, api.cluster, ignore=[" "]),
    modetable.ModetableError,
    "ignore[0] is empty",
    "bad-input",
)
bad_paths(
    "audit_cluster:baseline",
    lambda api, v: modetable.audit_cluster(api.policy, api.cluster, baseline=v),
)
wrong_types("AuditResult.fails:severity", lambda api, v: api.audit.fails(v), "a str or None")
for value in ("", "fatal", "Error"):
    case(
        f"AuditResult.fails:severity={value!r}",
        lambda api, value=value: api.audit.fails(value),
        modetable.ModetableError,
        f"severity must be one of error, warning, info (or None), got '{value}'",
        "not-allowed",
    )

# --- the errors' own classes --------------------------------------------------------

for value, shown in WRONG:
    case(
        f"ModetableError:message={shown}",
        lambda api, value=value: modetable.ModetableError(value),
        TypeError,
        f"message must be a str, got {shown}",
    )
    case(
        f"ModetableError:location={shown}",
        lambda api, value=value: modetable.ModetableError("m", value),
        TypeError,
        f"location must be a modetable.Location or None, got {shown}",
    )
    case(
        f"ErrorList:errors={shown}",
        lambda api, value=value: modetable.ErrorList(value),
        TypeError,
        f"errors must be a list of ModetableError, got {shown}",
    )
    case(
        f"Location:file={shown}",
        lambda api, value=value: modetable.Location(value),
        TypeError,
        f"file must be a str, got {shown}",
    )
    for field in ("line", "col"):
        if shown != "list" and shown != "bytes":
            continue
        case(
            f"Location:{field}={shown}",
            lambda api, value=value, field=field: modetable.Location("f", **{field: value}),
            TypeError,
            f"{field} must be an int or None, got {shown}",
        )
for value, shown in ((13, "int"), (None, "NoneType")):
    case(
        f"ModetableError:code={shown}",
        lambda api, value=value: modetable.ModetableError("m", code=value),
        TypeError,
        f"code must be a str (an ErrorCode), got {shown}",
    )
case(
    "ErrorList:errors=[str]",
    lambda api: modetable.ErrorList(["not an error"]),
    TypeError,
    "errors must be a list of ModetableError, got list",
)
for field, value, shown in (
    ("line", True, "bool"),
    ("line", "3", "str"),
    ("col", 1.5, "float"),
):
    case(
        f"Location:{field}={shown}",
        lambda api, field=field, value=value: modetable.Location("f", **{field: value}),
        TypeError,
        f"{field} must be an int or None, got {shown}",
    )
case(
    "Location:field=int",
    lambda api: modetable.Location("f", field=3),
    TypeError,
    "field must be a str or None, got int",
)
# An enum looked up by a value that is no code: Python's own contract for every Enum.
case(
    "ErrorCode:value='nope'",
    lambda api: modetable.ErrorCode("nope"),
    ValueError,
    "'nope' is not a valid ErrorCode",
)


@pytest.mark.parametrize(
    ("call", "exc", "message", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_every_argument_refuses_a_wrong_type_or_a_bad_value(api, call, exc, message, code):
    with pytest.raises(exc) as raised:
        call(api)
    assert type(raised.value) is exc, raised.value
    assert str(raised.value) == message
    assert getattr(raised.value, "code", None) == code


# Classes only modetable makes: every field of each refuses another type
# (test_no_public_class_is_made_of_wrong_parts).
MADE_BY_MODETABLE = {
    "Rules",
    "Policy",
    "Cluster",
    "SelectResult",
    "EffectiveResult",
    "AdmitResult",
    "MatchResult",
    "AuditResult",
    "AuditItem",
}


def public_parameters() -> set[str]:
    """`NAME:PARAMETER` and `CLASS.METHOD:PARAMETER` for every callable of
    `modetable.__all__` (a Warning takes anything, as every Warning does)."""
    found = set()
    for name in modetable.__all__:
        value = getattr(modetable, name)
        if isinstance(value, type) and issubclass(value, Warning):
            continue
        if isinstance(value, type) and issubclass(value, enum.Enum):
            found.add(f"{name}:value")
            continue
        callables = {}
        if not isinstance(value, type) or name not in MADE_BY_MODETABLE:
            callables[name] = value
        if isinstance(value, type):
            for member, raw in vars(value).items():
                if member.startswith("_") or member == "to_json":
                    continue
                if isinstance(raw, classmethod | staticmethod) or inspect.isfunction(raw):
                    callables[f"{name}.{member}"] = getattr(value, member)
        for label, function in callables.items():
            for parameter in inspect.signature(function).parameters:
                if parameter not in ("self", "cls"):
                    found.add(f"{label}:{parameter}")
    return found


def test_the_table_covers_every_argument_of_the_public_surface():
    """A new argument cannot come without its cases."""
    covered = {name.split("=")[0] for name, *_ in CASES}
    parameters = public_parameters()
    assert "Cluster.from_objects:lenient" in parameters
    assert {p for p in parameters if not any(c.startswith(p) for c in covered)} == set()


@pytest.mark.parametrize(
    "result",
    [
        "select",
        "effective",
        "admit",
        "match",
        "audit_cluster",
        "audit_item",
        "cluster",
        "rules",
        "policy",
    ],
)
def test_no_public_class_is_made_of_wrong_parts(api, result):
    """Every field of a public class that modetable fills refuses a value of
    another type: a `TypeError` saying what makes the object."""
    made = {
        "select": lambda: modetable.select(api.policy, api.cluster, ISVC),
        "effective": lambda: modetable.effective(api.policy, api.cluster, ISVC),
        "admit": lambda: modetable.admit(api.policy, api.cluster, ISVC),
        "match": lambda: modetable.match(api.policy, api.cluster, ISVC, runtime=RUNTIME),
        "audit_cluster": lambda: api.audit,
        "audit_item": lambda: api.audit.items[0],
        "cluster": lambda: api.cluster,
        "rules": lambda: api.rules,
        "policy": lambda: api.policy,
    }[result]()
    makers = {
        modetable.Cluster: "Cluster.from_paths or Cluster.from_objects",
        modetable.Rules: "load_rules()",
        modetable.Policy: "Rules.at()",
    }
    assert type(made).__name__ in MADE_BY_MODETABLE
    maker = makers.get(type(made), "select, effective, admit, match or audit_cluster")
    for field in attrs.fields(type(made)):
        with pytest.raises(TypeError) as raised:
            attrs.evolve(made, **{field.alias: b"wrong"})
        assert str(raised.value).startswith(f"{field.alias} must be "), raised.value
        assert str(raised.value).endswith(
            f" (a modetable.{type(made).__name__} is made by {maker}), got bytes"
        )


def test_standard_input_is_read_whatever_sys_stdin_is(api, monkeypatch):
    """`-` reads the process's standard input as bytes: a text stream without
    a binary buffer (a notebook's, io.StringIO) too; none at all is an error."""
    text = (EXAMPLES / "inference-service.yaml").read_text()
    for stream in (io.StringIO(text), io.BytesIO(text.encode())):
        monkeypatch.setattr(sys, "stdin", stream)
        cluster = modetable.Cluster.from_paths("-", rules=api.policy)
        assert cluster.isvcs == (ISVC,)
    monkeypatch.setattr(sys, "stdin", io.StringIO("a: \ud800\n"))
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.Cluster.from_paths("-", rules=api.policy)
    assert (str(raised.value), raised.value.code) == (
        "<stdin>:1:4: not UTF-8: byte 0xed cannot be decoded",
        "bad-input",
    )
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.Cluster.from_paths("-", rules=api.policy)
    assert (str(raised.value), raised.value.code) == (
        "<stdin>: cannot read: standard input is closed",
        "cannot-read",
    )
