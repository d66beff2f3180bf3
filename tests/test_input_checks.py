"""The one registry of field checks (inputs/checks.py): every object passes the
same checks in the same order, so which error wins does not depend on the
command, on how the objects came in, or on whether the audit reads leniently."""

from __future__ import annotations

import yaml
from conftest import isvc_doc, run_cli, runtime_doc, write

from modetable.inputs.checks import CHECKS


def _file(tmp_path, *documents: dict):
    return str(write(tmp_path, "cluster.yaml", yaml.safe_dump_all(documents, sort_keys=False)))


def test_an_object_wrong_twice_is_refused_by_the_api_server_for_both(tmp_path):
    # spec.engine and spec.model.name, fields the rules and selection read:
    # OME's CRD schema refuses both, before any field check or webhook.
    path = _file(tmp_path, isvc_doc("both", engine=3, model={"name": 4}))
    engine = (
        'spec.engine: Invalid value: "integer": spec.engine in body must be of type object: '
        '"integer"'
    )
    name = (
        'spec.model.name: Invalid value: "integer": spec.model.name in body must be of type '
        'string: "integer"'
    )
    denial = f'The InferenceService "both" is invalid: \n* {engine}\n* {name}'
    for command in ("select", "effective", "admit", "match"):
        run = run_cli(command, "--isvc", "ns/both", path)
        assert (run.code, run.err) == (1, ""), command
        assert run.out == f"InferenceService ns/both: denied\n{denial}\n", command
    audit = run_cli("audit", path, "-o", "json")
    found = [
        (f["id"], f["message"], f["location"]["line"]) for f in audit.json()["manifest_findings"]
    ]
    assert found == [("schema/type", engine, 7), ("schema/type", name, 9)]


def test_the_field_checks_meet_what_the_schema_leaves_open(tmp_path):
    # spec.rollout keeps unknown fields (v1.3's CRD does not give its
    # structure): the admission checks' field check refuses its groups; the
    # runtime's disabled is the schema's, which leaves the runtime out.
    isvc = isvc_doc("first", rollout={"groups": 3})
    runtime = runtime_doc("second", disabled="yes")
    path = _file(tmp_path, isvc, runtime)
    run = run_cli("select", "--isvc", "ns/first", path)
    groups = "spec.rollout.groups must be a list, got the number 3"
    assert (run.code, run.err) == (2, f"modetable: error: {path}:8:13: {groups}\n")
    # Leniently, each object is checked alone: both are refused, each for its own.
    audit = run_cli("audit", path, "-o", "json")
    found = [(f["object"]["name"], f["id"]) for f in audit.json()["manifest_findings"]]
    assert found == [("first", "manifest/invalid"), ("second", "schema/type")]


def test_the_registry_names_each_check_once_and_every_role_it_checks():
    names = [check.name for check in CHECKS]
    assert len(names) == len(set(names))
    assert {role for check in CHECKS for role in check.roles} == {"isvc", "runtime", "model"}


def _body_at(segments: tuple[str, ...], value: object) -> dict:
    """A body holding `value` at `segments`, mappings on the way (a list at `*`)."""
    node: object = value
    for head in reversed(segments):
        node = [node] if head == "*" else {head: node}
    assert isinstance(node, dict)
    return node


def test_every_field_the_admission_checks_read_is_refused_when_wrong(v13):
    """`check_test_fields` walks every path once over their shared prefixes and
    falls back to the path-by-path walk (which names the first problem) only
    when something is wrong: a value of the wrong type at any path read, or
    anything but a mapping on the way to it, is still refused, with the
    path-by-path walk's message."""
    from types import SimpleNamespace

    import pytest

    from modetable.errors import Location, ModetableError
    from modetable.inputs.admission_fields import check_test_fields, path_values, read_fields
    from modetable.parsing import paths

    wrong = {"integer": "7", "string": 7, "boolean": "yes"}
    said = {"integer": "an integer", "string": "a string", "boolean": "true or false"}
    tried = 0
    for template, component, holds in read_fields(v13):
        segments = paths.expand(template, path_values(v13, component))
        shown = paths.render(segments)
        cases = [(segments, 3.5 if holds == "anything" else wrong.get(holds), holds)]
        # A scalar where a mapping (or a list, before `*`) must be.
        for depth in range(1, len(segments)):
            expected = "a list" if segments[depth] == "*" else "a mapping"
            cases.append((segments[:depth], 7, expected))
        for where, value, expected in cases:
            if value is None or expected == "anything" or "*" in where[-1:]:
                continue
            isvc = SimpleNamespace(body=_body_at(where, value), location=Location("x.yaml"))
            with pytest.raises(ModetableError) as raised:
                check_test_fields(v13, isvc)
            assert raised.value.message.startswith(f"{paths.render(where)} must be "), shown
            assert said.get(expected, expected) in raised.value.message, shown
            tried += 1
        isvc = SimpleNamespace(body=_body_at(segments, None), location=Location("x.yaml"))
        check_test_fields(v13, isvc)  # nothing set: nothing wrong
    assert tried > 20
