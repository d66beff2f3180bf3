"""The one registry of field checks (inputs/checks.py): every object passes the
same checks in the same order, so which error wins does not depend on the
command, on how the objects came in, or on whether the audit reads leniently."""

from __future__ import annotations

import yaml
from conftest import isvc_doc, run_cli, runtime_doc, write

from modetable.inputs.checks import CHECKS


def _file(tmp_path, *documents: dict):
    return str(write(tmp_path, "cluster.yaml", yaml.safe_dump_all(documents, sort_keys=False)))


def test_an_object_wrong_twice_gets_the_first_checks_error_from_every_command(tmp_path):
    # spec.engine is a field the rules read (the running merge); spec.model.name
    # one selection reads: the rules' check comes first in the registry.
    path = _file(tmp_path, isvc_doc("both", engine=3, model={"name": 4}))
    message = "spec.engine must be a mapping, got the number 3"
    for command in ("select", "effective", "admit", "match"):
        run = run_cli(command, "--isvc", "ns/both", path)
        assert (run.code, run.err) == (2, f"modetable: error: {path}:7:11: {message}\n"), command
    audit = run_cli("audit", path, "-o", "json")
    (finding,) = audit.json()["manifest_findings"]
    assert (finding["id"], finding["message"], finding["location"]["line"]) == (
        "manifest/invalid",
        message,
        7,
    )


def test_on_a_whole_cluster_each_check_runs_over_its_objects_before_the_next(tmp_path):
    # The InferenceService comes first in the file, but its problem is one the
    # admission checks read, checked after what selection reads on the runtime.
    isvc = isvc_doc("first", rollout={"groups": 3})
    runtime = runtime_doc("second", disabled="yes")
    path = _file(tmp_path, isvc, runtime)
    run = run_cli("select", "--isvc", "ns/first", path)
    wrong = "spec.disabled must be true or false, got the string 'yes'"
    assert (run.code, run.err) == (2, f"modetable: error: {path}:17:13: {wrong}\n")
    # Leniently, each object is checked alone: both are refused, each for its own.
    audit = run_cli("audit", path, "-o", "json")
    found = [(f["object"]["name"], f["message"]) for f in audit.json()["manifest_findings"]]
    assert found == [
        ("first", "spec.rollout.groups must be a list, got the number 3"),
        ("second", wrong),
    ]


def test_the_registry_names_each_check_once_and_every_role_it_checks():
    names = [check.name for check in CHECKS]
    assert len(names) == len(set(names))
    assert {role for check in CHECKS for role in check.roles} == {"isvc", "runtime", "model"}
