"""The audit's findings: one set per InferenceService, graded by the rules'
`findings` section, at the place to fix; on the catalog and on small fleets."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import (
    CATALOG,
    catalog_models_read,
    format_entry,
    isvc_doc,
    llama_model_spec,
    model_doc,
    need,
    run_cli,
    runtime_doc,
    write,
)
from test_audit import LWS_BREAKS, LWS_COMMAND, fleet_documents, write_fleet

from modetable.audit.findings import described


@pytest.fixture(scope="module")
def catalog_audit():
    run = run_cli("audit", str(need(CATALOG)), "-o", "json")
    assert run.code == 1, run.err
    return run.json()


@pytest.fixture(scope="module")
def catalog_read_audit(tmp_path_factory):
    """The catalog once OME has read the two multi-node models (their modelFormat set)."""
    models = catalog_models_read(tmp_path_factory.mktemp("read"), "deepseek-r1", "kimi-k2-instruct")
    run = run_cli("audit", str(need(CATALOG)), str(models), "-o", "json")
    return run.json()


def _by_ref(document: dict) -> dict[str, dict]:
    return {item["isvc"]: item for item in document["items"]}


def _line(location: dict) -> str:
    return Path(location["file"]).read_text().splitlines()[location["line"] - 1]


@pytest.mark.parametrize(
    ("isvc", "runtime"),
    [
        ("deepseek-r1/deepseek-r1", "srt-deepseek-rdma"),
        ("kimi-k2-instruct/kimi-k2-instruct", "srt-kimi-k2-pd"),
    ],
)
def test_omenative_services_whose_runtimes_rely_on_a_leaderworkerset(
    catalog_read_audit, isvc, runtime
):
    """Under v1.3 they run OMENative, upgrade or not, and their runtimes still use
    LWS_* variables and leaderworkerset.sigs.k8s.io labels: each use is a warning
    at the InferenceService's spec.runtime.name, with the runtime's line as its
    related place (once their models are read: as written, the webhook
    refuses the runtime they name for a model with no format)."""
    item = _by_ref(catalog_read_audit)[isvc]
    assert item["problems"] == []
    assert item["components"]["engine"] == {"mode": "OMENative", "source": "LeaderWorkerShape"}
    moves = [f for f in item["findings"] if f["id"] == "mode_move/leaderworkerset-to-omenative"]
    assert moves
    for finding in moves:
        assert finding["severity"] == "warning"
        assert finding["object"] == {
            "kind": "ClusterServingRuntime",
            "namespace": None,
            "name": runtime,
        }
        name = finding["message"].split(" uses the ")[1].split()[1].rstrip(",")
        prefix = name.split("=")[0]
        assert prefix.startswith(("LWS_", "leaderworkerset.sigs.k8s.io/"))
        assert _line(finding["location"]).strip() == f"name: {runtime}"
        [place] = finding["related"]
        assert place["label"] == f"ClusterServingRuntime {runtime}"
        assert prefix in _line(place)
        assert finding["message"].startswith(f"ClusterServingRuntime {runtime} spec.")
        assert "which OMENative does not set" in finding["message"]


def test_runtimes_named_without_declaring_the_model_are_warnings(catalog_audit):
    """The webhook warns and OME records a RuntimeCompatibilityAdvisory event: a
    warning at the runtime, by the check the runtime fails."""
    advisories = [
        (item, f)
        for item in catalog_audit["items"]
        for f in item["findings"]
        if f["id"].startswith("check/")
    ]
    # None: the samples naming a runtime name it for a model OME's model agent
    # has yet to fill in (the model-format check pending; xgen-7b-8k-inst's
    # runtime requires an architecture its model does not have yet).
    assert advisories == []
    for item, finding in advisories:
        assert item["result"] == "named_unsupported"
        assert "RuntimeCompatibilityAdvisory" in {e["reason"] for e in item["events"]}
        assert finding["severity"] == "warning"
        # The webhook's warning, or the event when the webhook denies before it
        # reaches the runtime (three samples scale their engine to zero).
        shown = item["admission"]["warnings"] or [
            e["message"] for e in item["events"] if e["reason"] == "RuntimeCompatibilityAdvisory"
        ]
        assert finding["message"] in shown
        assert finding["object"]["name"] == item["runtime"]["name"]
        # At the InferenceService's spec.runtime.name; the runtime where it begins.
        assert _line(finding["location"]).strip() == f"name: {item['runtime']['name']}"
        assert finding["location"]["file"] == item["at"].rsplit(":", 2)[0]
        [place] = finding["related"]
        assert place["line"] == 1
        assert place["label"] == f"{finding['object']['kind']} {finding['object']['name']}"


def test_the_catalog_summary_counts_by_severity(catalog_audit):
    """Most models in the catalog wait for OME's model agent: their checks are
    pending, counted apart; four InferenceServices are real mistakes (see
    test_the_catalogs_errors_are_real_mistakes), and nine have warnings."""
    summary = catalog_audit["summary"]
    # exaone and glm-4-5v are refused by the API server: not audited.
    assert summary["isvcs"] == 140
    # Warnings: two InferenceServices run OMENative on runtimes that use a
    # LeaderWorkerSet's names, seven have a mode in metadata.annotations.
    assert summary["severity"] == {"error": 4, "warning": 9, "info": 0}
    assert summary["pending"] == 108
    assert summary["ok"] == 140 - 4 - 9 - 108
    items = catalog_audit["items"]
    every = [f for item in items for f in item["findings"]] + catalog_audit["manifest_findings"]
    assert summary["findings"] == {
        s: sum(f["severity"] == s and not f["pending"] for f in every)
        for s in ("error", "warning", "info")
    }
    assert summary["pending_findings"] == sum(f["pending"] for f in every) == 120
    assert {f["id"] for f in every if f["pending"]} == {"pending/model-metadata"}
    assert [f["id"] for f in catalog_audit["manifest_findings"]] == [
        *["schema/unknown-field"] * 3,
        "schema/required",
        *["schema/unknown-field"] * 4,
        *["manifest/duplicate"] * 10,
    ]
    assert sum(not item["findings"] for item in items) == summary["ok"]
    assert (
        sum(
            bool(item["findings"]) and all(f["pending"] for f in item["findings"]) for item in items
        )
        == summary["pending"]
    )


def test_the_catalogs_errors_are_real_mistakes(catalog_audit):
    """No error whose only cause is a field OME's model agent fills in: each is
    a mistake in the repository."""
    errors = {
        item["isvc"]: [f["id"] for f in item["findings"] if f["severity"] == "error"]
        for item in catalog_audit["items"]
    }
    assert {isvc: ids for isvc, ids in errors.items() if ids} == {
        # (exaone and glm-4-5v, refused by the API server, are not audited)
        # names model llama-3-2-90b-fp8-dynamic; the catalog's model has another name
        "llama-3-2-90b-fp8-dynamic/llama-3-2-90b-fp8-dynamic": ["admission/model-exists"],
        # minReplicas: 0 without KEDA
        "default/mistral-7b-instruct-v0-2": ["admission/scale-to-zero"],
        "default/mistral-small-3-1-24b-instruct-2503": ["admission/scale-to-zero"],
        "default/mixtral-8x7b-instruct-v0-1": ["admission/scale-to-zero"],
    }


def test_a_model_that_waits_is_the_object_to_fix(catalog_audit):
    """bge-m3 names no runtime and its model has no format yet: pending, the
    finding at the model, with what the webhook answers until it is filled in."""
    item = _by_ref(catalog_audit)["bge-m3/bge-m3"]
    [finding] = item["findings"]
    assert item["result"] == "pending" and item["problems"] == []
    assert finding["id"] == "pending/model-metadata"
    assert (finding["severity"], finding["pending"]) == ("info", True)
    assert finding["object"] == {"kind": "ClusterBaseModel", "namespace": None, "name": "bge-m3"}
    # At the InferenceService's spec.model.name, the model as the related place.
    assert finding["location"]["file"].endswith("inferenceservices/BAAI/bge-m3.yaml")
    assert _line(finding["location"]) == "    name: bge-m3"
    assert finding["location"]["col"] == 11
    [place] = finding["related"]
    assert place["file"].endswith("models/BAAI/bge-m3.yaml")
    assert item["pending"]["model"]["at"] == f"{place['file']}:1:1"
    assert place["label"] == "ClusterBaseModel bge-m3"
    assert finding["message"] == (
        "ClusterBaseModel bge-m3 has no modelFormat, modelFramework, modelArchitecture, "
        "modelParameterSize yet: OME's model agent fills them in when it has read the model's "
        "config. Until then OME answers: " + item["pending"]["answer"]
    )
    assert item["pending"]["answer"] == (
        'admission webhook "inferenceservice.ome-webhook-server.validator" denied the '
        "request: no supporting runtime found for model bge-m3 and engine does not have "
        "complete runner configuration: invalid model specification: modelFormat.name: "
        "model format name is required"
    )


def test_every_finding_id_is_graded_by_the_rules(catalog_audit, v13):
    graded = {entry[0]: entry[2] for entry in described(v13)}
    for item in catalog_audit["items"]:
        for finding in item["findings"]:
            assert graded[finding["id"]] == finding["severity"]


# --- small fleets -----------------------------------------------------------------


@pytest.fixture
def fleet(tmp_path):
    return write_fleet(tmp_path)


def _warnings_only(tmp_path) -> Path:
    """One InferenceService on a deprecated mode: a warning and nothing worse."""
    documents = fleet_documents()
    # The model and the runtimes, but router-mn (its routerConfig mode is a warning).
    text = yaml.safe_dump_all([*documents[:3], documents[4]], sort_keys=False)
    return write(tmp_path, "warn.yaml", text)


@pytest.mark.parametrize(
    ("fail_on", "code"), [(None, 0), ("error", 0), ("warning", 1), ("never", 0)]
)
def test_fail_on_picks_the_severity_that_fails(tmp_path, fail_on, code):
    path = _warnings_only(tmp_path)
    argv = ["audit", str(path)] + (["--fail-on", fail_on] if fail_on else [])
    run = run_cli(*argv)
    assert run.code == code, run.out
    assert run.out.splitlines()[-1].endswith(
        "1 with warnings, 0 with info; findings: 0 errors, 1 warning, 0 info"
    )


def test_fail_on_never_passes_errors_too(fleet):
    assert run_cli("audit", str(fleet)).code == 1
    assert run_cli("audit", str(fleet), "--fail-on", "never").code == 0


def test_a_component_running_omenative_with_lws_names_is_found_now(tmp_path):
    """No upgrade involved: the engine runs OMENative (its leader/worker shape) and
    the runtime's command reads LWS_* variables that OMENative does not set."""
    lws = {"runner": {"name": "ome-container", "command": LWS_COMMAND}}
    documents = [
        model_doc("m", **llama_model_spec()),
        runtime_doc(
            "lws",
            supportedModelFormats=[format_entry()],
            engineConfig={"leader": lws, "worker": lws},
        ),
        isvc_doc("grouped", "a", engine={}),
    ]
    path = write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    item = run_cli("audit", str(path), "-o", "json").json()["items"][0]
    assert item["components"] == {"engine": {"mode": "OMENative", "source": "LeaderWorkerShape"}}
    assert [(f["id"], f["severity"], f["message"]) for f in item["findings"]] == [
        ("mode_move/leaderworkerset-to-omenative", "warning", message)
        for _path, message in LWS_BREAKS
    ]
    for finding in item["findings"]:
        assert _line(finding["location"]) == "    name: m"  # spec.model.name: picked for it
        [place] = finding["related"]
        assert place["label"] == "ClusterServingRuntime lws"
        assert "$(LWS_" in _line(place)
    # The same runtime in v1.2.2 runs a LeaderWorkerSet (MultiNode): nothing breaks.
    older = run_cli("--ome-version", "v1.2.2", "audit", str(path), "-o", "json").json()
    assert older["items"][0]["findings"] == []


def test_a_misspelled_model_gets_did_you_mean(tmp_path):
    documents = [
        model_doc("llama-3-70b", **llama_model_spec()),
        runtime_doc("plain", supportedModelFormats=[format_entry()]),
        isvc_doc("typo", "a", engine={}, model={"name": "llama-3-7b"}),
    ]
    path = write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    [finding] = run_cli("audit", str(path), "-o", "json").json()["items"][0]["findings"]
    assert finding["id"] == "admission/model-exists"
    assert finding["hint"] == 'did you mean "llama-3-70b"?'
    select = run_cli("select", "--isvc", "a/typo", str(path))
    assert 'did you mean "llama-3-70b"?' in select.out.splitlines()


def test_a_misspelled_runtime_gets_did_you_mean(tmp_path):
    documents = [
        model_doc("m", **llama_model_spec()),
        runtime_doc("srt-llama", supportedModelFormats=[format_entry()]),
        isvc_doc("typo", "a", engine={}, runtime={"name": "srt-lama"}),
    ]
    path = write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    data = run_cli("select", "--isvc", "a/typo", str(path), "-o", "json").json()
    assert (data["result"], data["hint"]) == ("runtime_missing", 'did you mean "srt-llama"?')


def test_a_disabled_named_runtime_is_the_object_to_fix(tmp_path):
    documents = [
        model_doc("m", **llama_model_spec()),
        runtime_doc("off", supportedModelFormats=[format_entry()], disabled=True),
        isvc_doc("svc", "a", engine={}, runtime={"name": "off"}),
    ]
    path = write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    [finding] = run_cli("audit", str(path), "-o", "json").json()["items"][0]["findings"]
    assert finding["id"] == "outcome/runtime_disabled"
    assert finding["object"] == {"kind": "ClusterServingRuntime", "namespace": None, "name": "off"}
    select = run_cli("select", "--isvc", "a/svc", str(path))
    assert select.out.splitlines()[2] == f"Cause: ClusterServingRuntime off ({path}:17:1)"


def test_an_unknown_isvc_gets_did_you_mean(fleet):
    run = run_cli("select", "--isvc", "a/pined", str(fleet))
    assert (run.code, run.err) == (
        2,
        "modetable: error: no InferenceService 'a/pined' among the manifests "
        '(did you mean "a/pinned"?)\n',
    )


# --- kubectl habits -----------------------------------------------------------------


def _rows(run) -> list[list[str]]:
    return [line.split()[:2] for line in run.out.split("\n\n")[0].splitlines()]


def test_namespace_and_sorted_rows(fleet):
    assert _rows(run_cli("audit", str(fleet), "-n", "b")) == [
        ["NAMESPACE", "NAME"],
        ["b", "lost"],
        ["b", "routed"],
    ]
    everything = run_cli("audit", str(fleet), "-A")
    assert _rows(everything)[1:] == [
        ["a", "native"],
        ["a", "pinned"],
        ["b", "lost"],
        ["b", "routed"],
    ]
    run = run_cli("audit", str(fleet), "-n", "b", "-A")
    assert run.code == 2
    assert "not allowed with argument" in run.err


def test_a_namespace_no_object_is_in_is_an_error_with_did_you_mean(fleet):
    """A misspelled namespace must not pass a CI gate, finding nothing: exit 2,
    said even under -q (a namespace with objects but no InferenceService is a
    warning: tests/test_audit_namespace.py)."""
    run = run_cli("audit", str(fleet), "-n", "bb")
    assert (run.code, run.out, run.err) == (
        2,
        "",
        "modetable: error: no object of namespace 'bb' among the manifests (did you mean \"b\"?)\n",
    )
    zzz = "modetable: error: no object of namespace 'zzz' among the manifests\n"
    assert run_cli("audit", str(fleet), "-n", "zzz").err == zzz
    assert run_cli("audit", str(fleet), "-n", "zzz", "-q").err == zzz
    assert run_cli("audit", str(fleet), "-n", "b").err == ""


def test_a_namespace_leaves_out_the_manifest_findings_of_other_namespaces(tmp_path):
    """-n b: a/pinned defined twice and a's malformed object are a's problems;
    router-mn, which b/routed names, is b's concern; an object of no known
    namespace may be anyone's."""
    documents = fleet_documents()
    extra = [
        documents[4],  # a/pinned again
        runtime_doc("router-mn", supportedModelFormats=[format_entry()]),  # cluster-scoped
        {**isvc_doc("bad", "a", engine={}), "spec": [1]},
        {**isvc_doc("bad", "b", engine={}), "spec": [1]},
        {"kind": 7},
    ]
    write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    write(tmp_path, "g.yaml", yaml.safe_dump_all(extra, sort_keys=False))
    whole = run_cli("audit", str(tmp_path), "-o", "json").json()["manifest_findings"]
    scoped = run_cli("audit", str(tmp_path), "-n", "b", "-o", "json").json()
    listed = [(f["id"], f["object"]["namespace"], f["object"]["name"]) for f in whole]
    assert listed == [
        ("manifest/invalid", "a", "bad"),
        ("manifest/invalid", "b", "bad"),
        ("manifest/invalid", None, None),
        ("manifest/duplicate", "a", "pinned"),
        ("manifest/duplicate", None, "router-mn"),
    ]
    assert scoped["manifest_findings"] == [
        f for f in whole if f["object"]["namespace"] in (None, "b")
    ]
    assert scoped["summary"]["findings"]["warning"] == 1 + sum(
        f["severity"] == "warning" for i in scoped["items"] for f in i["findings"]
    )
    # The router-mn applied (the later, autoSelect true) could be given to a's
    # InferenceServices: a's concern too (tests/test_audit_namespace.py has one
    # a namespace does not use).
    mine = run_cli("audit", str(tmp_path), "-n", "a", "-o", "json").json()["manifest_findings"]
    assert mine == [f for f in whole if f["object"]["namespace"] in (None, "a")]


def test_severity_shows_only_what_reaches_it(fleet):
    errors = run_cli("audit", str(fleet), "--severity", "error", "-o", "json").json()
    assert [i["isvc"] for i in errors["items"]] == ["b/lost", "b/routed"]
    assert errors["summary"]["isvcs"] == 4  # the summary counts every InferenceService
    problems = run_cli("audit", str(fleet), "--problems-only", "-o", "json").json()
    assert [i["isvc"] for i in problems["items"]] == ["a/pinned", "b/lost", "b/routed"]


def test_no_headers_and_quiet(fleet):
    plain = run_cli("audit", str(fleet), "--no-headers")
    assert plain.out.splitlines()[0].split()[:2] == ["a", "native"]
    quiet = run_cli("audit", str(fleet), "--quiet")
    assert (quiet.code, quiet.out, quiet.err) == (1, "", "")
    assert run_cli("audit", str(fleet), "-q", "--fail-on", "never").code == 0


def test_duplicates_are_warned_once_with_a_count(tmp_path):
    documents = fleet_documents()
    write(tmp_path, "a.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    write(tmp_path, "b.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    run = run_cli("audit", str(tmp_path), "-o", "json")
    [line] = run.err.splitlines()
    assert line.startswith(f"modetable: warning: {tmp_path}/b.yaml:")
    assert line.endswith(
        "the later one is used, as kubectl apply would leave it "
        "(and 7 more defined twice: `modetable audit` lists each)"
    )
    # (router-mn's routerConfig mode, a mode_source finding, aside)
    found = [f for f in run.json()["manifest_findings"] if f["id"].startswith("manifest/")]
    assert [f["id"] for f in found] == ["manifest/duplicate"] * 8
    assert {f["location"]["file"] for f in found} == {f"{tmp_path}/b.yaml"}


def test_a_runtime_of_another_namespace_is_said_where_it_is(tmp_path):
    documents = [
        model_doc("m", **llama_model_spec()),
        runtime_doc(
            "mine", kind="ServingRuntime", namespace="other", supportedModelFormats=[format_entry()]
        ),
        isvc_doc("svc", "a", engine={}, runtime={"name": "mine", "kind": "ServingRuntime"}),
    ]
    path = write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    data = run_cli("select", "--isvc", "a/svc", str(path), "-o", "json").json()
    assert (data["result"], data["hint"]) == (
        "runtime_missing",
        'ServingRuntime "other/mine" exists',
    )


PLANTED = """\
apiVersion: ome.io/v1beta1
kind: ClusterServingRuntime
metadata:
  name: planted-broken
spec:
  disabled: "no"
"""


def test_a_planted_runtime_the_api_server_refuses_is_one_finding_and_the_rest_is_audited(
    tmp_path, catalog_audit, catalog_read_once
):
    """Read with the planted runtime from disk; the catalog alone, as it is
    answered without it, from the module's audit and the worker's reading."""
    catalog = str(need(CATALOG))
    planted = write(tmp_path, "planted.yaml", PLANTED)
    run = run_cli("audit", catalog, str(planted), "-o", "json")
    assert run.code == 1, run.err
    document = run.json()
    assert document["summary"]["isvcs"] == 140
    refused = [f for f in document["manifest_findings"] if f["object"]["name"] == "planted-broken"]
    text = (
        'spec.disabled: Invalid value: "string": spec.disabled in body must be of type '
        'boolean: "string"'
    )
    assert refused == [
        {
            "severity": "error",
            "id": "schema/type",
            "message": text,
            "location": {"file": str(planted), "line": 6, "col": 13},
            "object": {
                "kind": "ClusterServingRuntime",
                "namespace": None,
                "name": "planted-broken",
            },
            "hint": None,
            "related": [],
            "pending": False,
        }
    ]
    # Any other command leaves it out, with a warning, and answers as without it.
    args = ("--isvc", "deepseek-r1/deepseek-r1", catalog)
    for command in ("select", "match"):
        alone = run_cli(command, *args)
        with_it = run_cli(command, *args, str(planted))
        assert (with_it.code, with_it.out) == (alone.code, alone.out)
        # One warning names the first refused (the catalog's exaone) and counts the rest.
        assert "(and 1 more: `modetable audit` lists each)" in alone.err
        assert with_it.err == alone.err.replace("(and 1 more:", "(and 2 more:")
    # Everything else as without it: one error more.
    clean = catalog_audit["summary"]
    assert document["summary"]["findings"]["error"] == clean["findings"]["error"] + 1
    assert document["summary"]["severity"] == clean["severity"]


def test_a_malformed_isvc_is_left_out_and_found(tmp_path):
    documents = fleet_documents()
    text = yaml.safe_dump_all(documents, sort_keys=False) + (
        "---\nkind: InferenceService\nmetadata: {name: bad, namespace: a}\nspec: [1]\n"
        "---\nkind: 7\n"
    )
    path = write(tmp_path, "f.yaml", text)
    document = run_cli("audit", str(path), "-o", "json").json()
    assert [i["isvc"] for i in document["items"]] == ["a/native", "a/pinned", "b/lost", "b/routed"]
    objects = [f for f in document["manifest_findings"] if f["id"].startswith("manifest/")]
    assert [(f["object"], f["message"]) for f in objects] == [
        (
            {"kind": "InferenceService", "namespace": "a", "name": "bad"},
            "spec must be a mapping, got a list",
        ),
        (
            {"kind": None, "namespace": None, "name": None},
            "kind must be a string, got the number 7",
        ),
    ]
    junit = run_cli("audit", str(path), "-o", "junit").out
    assert junit.count("<testcase ") == 6


def test_a_file_that_is_not_yaml_is_one_finding_and_the_rest_is_audited(tmp_path):
    """A syntax error, a tag modetable does not read, bytes that are not UTF-8:
    each file one finding where reading stopped, the other files audited."""
    fleet = tmp_path / "fleet"
    write(fleet, "fleet.yaml", yaml.safe_dump_all(fleet_documents(), sort_keys=False))
    write(fleet, "a-broken.yaml", "kind: ClusterServingRuntime\nspec: [1,\n")
    write(fleet, "b-tagged.yml", "site_name: x\nformat: !!python/name:os.getcwd\n")
    (fleet / "c-latin1.yaml").write_bytes(b"kind: InferenceService\nmetadata: {name: caf\xe9}\n")
    run = run_cli("audit", str(fleet), "-o", "json")
    assert run.code == 1, run.err
    document = run.json()
    assert [i["isvc"] for i in document["items"]] == ["a/native", "a/pinned", "b/lost", "b/routed"]
    nothing = {"kind": None, "namespace": None, "name": None}
    assert [
        (f["id"], f["severity"], f["location"], f["object"], f["message"])
        for f in document["manifest_findings"]
        if f["id"].startswith("manifest/")  # router-mn's routerConfig mode aside
    ] == [
        (
            "manifest/invalid",
            "error",
            {"file": str(fleet / "a-broken.yaml"), "line": 3, "col": 1},
            nothing,
            "invalid YAML: did not find expected node content",
        ),
        (
            "manifest/invalid",
            "error",
            {"file": str(fleet / "b-tagged.yml"), "line": 2, "col": 9},
            nothing,
            "the YAML tag !!python/name:os.getcwd is not supported: modetable reads only "
            "mappings, lists, strings, numbers, booleans and null",
        ),
        (
            "manifest/invalid",
            "error",
            {"file": str(fleet / "c-latin1.yaml"), "line": 2, "col": 21},
            nothing,
            "not UTF-8: byte 0xe9 cannot be decoded",
        ),
    ]
    # The commands that answer about one object still refuse the tree.
    select = run_cli("select", "--isvc", "a/native", str(fleet))
    assert select.code == 2
    assert select.err.splitlines()[-1] == (
        f"modetable: error: {fleet / 'a-broken.yaml'}:3:1: invalid YAML: "
        "did not find expected node content"
    )
    # Under --within, a broken file outside the files given is not reported.
    within = run_cli("audit", "--within", str(fleet), str(fleet / "fleet.yaml"), "-o", "json")
    assert within.json()["manifest_findings"] == []


# OME's docs, troubleshooting the webhook's denial of a model with no format.
MODEL_FORMAT_HINT = (
    "Wait for the model to become `Ready`: OME fills in its format when the model agent "
    "has read it."
)
# A model OME's model agent is done with, still without a format.
READY_HINT = (
    "The model is Ready without modelFormat, modelFramework, modelArchitecture, "
    "modelParameterSize: OME's model agent has filled in what it could read. Write them "
    "into the model's manifest."
)
NAMED_DENIAL = (
    'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
    "runtime rt does not support model m: invalid model specification: modelFormat.name: "
    "model format name is required"
)
AUTO_DENIAL = (
    'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
    "no supporting runtime found for model m and engine does not have complete runner "
    "configuration: invalid model specification: modelFormat.name: model format name is "
    "required"
)


def _repository(tmp_path, status=None):
    """A model as a repository holds it (no format; `status` as given); one
    InferenceService auto-selects, one names the runtime."""
    model = model_doc("m")
    model["spec"] = {"storage": {"storageUri": "hf://org/m"}}
    if status is not None:
        model["status"] = status
    documents = [
        model,
        runtime_doc("rt", supportedModelFormats=[format_entry()]),
        isvc_doc("auto", "a", engine={}),
        isvc_doc("named", "a", engine={}, runtime={"name": "rt"}),
    ]
    write(tmp_path, "repo/all.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    return tmp_path / "repo"


@pytest.fixture
def unread(tmp_path):
    """The model as a repository declares it: OME's model agent has yet to read it."""
    return _repository(tmp_path)


@pytest.fixture
def settled(tmp_path):
    """The model Ready without a format: OME refuses it, now and later."""
    return _repository(tmp_path, {"state": "Ready"})


def test_select_and_explain_show_the_hint(settled):
    run = run_cli("select", "--isvc", "a/named", str(settled))
    assert run.code == 1, run.err
    assert run.out.splitlines()[:7] == [
        "InferenceService a/named: no runtime (v1.3)",
        "invalid model specification: modelFormat.name: model format name is required",
        f"Cause: ClusterBaseModel m ({settled}/all.yaml:1:1)",
        READY_HINT,
        "",
        "Admission: denied",
        NAMED_DENIAL,
    ]
    assert run_cli("select", "--isvc", "a/auto", str(settled), "-o", "json").json()["hint"] == (
        READY_HINT
    )
    run = run_cli("explain", "--model", "m", "-n", "a", str(settled), "-o", "json")
    assert run.err.splitlines() == [
        f"Cause: ClusterBaseModel m ({settled}/all.yaml:1:1): invalid model specification: "
        "modelFormat.name: model format name is required",
        READY_HINT,
    ]
    assert run.json()["hint"] == READY_HINT


def test_a_failed_model_is_an_error_that_quotes_its_status(tmp_path):
    repository = _repository(tmp_path, {"state": "Failed"})
    item = run_cli("select", "--isvc", "a/named", str(repository), "-o", "json").json()
    assert (item["result"], item["pending"]) == ("named_model_invalid", None)
    assert item["hint"] == (
        "The model's status.state is Failed: OME's model agent will not fill in modelFormat, "
        "modelFramework, modelArchitecture, modelParameterSize. See the model's status, or "
        "write them into its manifest."
    )


def test_explain_of_a_model_that_waits_says_to_wait(unread):
    run = run_cli("explain", "--model", "m", "-n", "a", str(unread), "-o", "json")
    assert run.json()["hint"] == MODEL_FORMAT_HINT


@pytest.mark.parametrize(
    ("output", "shown", "times"),
    [
        ("table", f"\n        {READY_HINT}\n", 2),  # under its finding
        ("markdown", f" ({READY_HINT})", 2),  # padded to the column
        ("github", f" ({READY_HINT})\n", 2),
        ("sarif", f' ({READY_HINT})"', 2),
        ("junit", f" ({READY_HINT})", 2),  # the failure's text
        ("json", f'"hint": "{READY_HINT}"', 4),  # each item's and its finding's
    ],
)
def test_every_audit_format_shows_the_hint(settled, output, shown, times):
    run = run_cli("audit", str(settled), "-o", output)
    assert run.code == 1, run.err
    assert run.out.count(shown) == times, run.out


def _pending_message(answer: str) -> str:
    return (
        "ClusterBaseModel m has no modelFormat, modelFramework, modelArchitecture, "
        "modelParameterSize yet: OME's model agent fills them in when it has read the "
        "model's config. Until then OME answers: " + answer
    )


def test_a_model_that_waits_is_pending_not_an_error(unread):
    """Both InferenceServices get rt once OME's model agent has filled the model
    in: nothing fails, each has one pending finding at the model."""
    run = run_cli("audit", str(unread), "-o", "json", "--fail-on", "warning")
    assert run.code == 0, run.out
    document = run.json()
    items = _by_ref(document)
    assert (items["a/auto"]["result"], items["a/auto"]["runtime"]) == ("pending", None)
    assert items["a/auto"]["message"] == (
        "the runtime is picked once OME's model agent has filled in the model; these pass "
        "every check decided now: rt"
    )
    assert (items["a/named"]["result"], items["a/named"]["runtime"]["name"]) == ("named", "rt")
    for ref, answer in (("a/auto", AUTO_DENIAL), ("a/named", NAMED_DENIAL)):
        assert items[ref]["problems"] == []
        [finding] = items[ref]["findings"]
        # At the InferenceService's spec.model.name, the model's place related.
        location = finding.pop("location")
        assert (location["file"], _line(location), location["col"]) == (
            f"{unread}/all.yaml",
            "    name: m",
            11,
        )
        assert finding == {
            "severity": "info",
            "id": "pending/model-metadata",
            "message": _pending_message(answer),
            "object": {"kind": "ClusterBaseModel", "namespace": None, "name": "m"},
            "hint": None,
            "related": [
                {"file": f"{unread}/all.yaml", "line": 1, "col": 1, "label": "ClusterBaseModel m"}
            ],
            "pending": True,
        }
    summary = document["summary"]
    assert (summary["ok"], summary["pending"], summary["pending_findings"]) == (0, 2, 2)
    assert summary["severity"] == summary["findings"] == {"error": 0, "warning": 0, "info": 0}


def test_every_audit_format_counts_the_pending_apart(unread):
    table = run_cli("audit", str(unread)).out
    assert table.splitlines()[-1] == (
        "2 InferenceServices (v1.3): 0 ok, 2 pending, 0 with errors, 0 with warnings, "
        "0 with info; findings: 0 errors, 0 warnings, 0 info, 2 pending"
    )
    named_at = run_cli("audit", str(unread), "-o", "json").json()["items"][1]["findings"][0]
    where = f"{unread}/all.yaml:{named_at['location']['line']}:11"
    assert (
        f"    {where}: info: {_pending_message(NAMED_DENIAL)} [pending/model-metadata]\n"
        f"        see ClusterBaseModel m at {unread}/all.yaml:1:1\n"
    ) in table
    github = run_cli("audit", str(unread), "-o", "github").out
    assert github.count("::notice file=") == 2
    sarif = run_cli("audit", str(unread), "-o", "sarif").json()
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("pending/model-metadata", "note")] * 2
    junit = run_cli("audit", str(unread), "-o", "junit", "--fail-on", "warning").out
    assert 'tests="2" failures="0" errors="0" skipped="2"' in junit
    assert junit.count("<skipped message=") == 2
    assert "<failure" not in junit
    markdown = run_cli("audit", str(unread), "-o", "markdown").out
    rows = [line.split("|")[1:3] for line in markdown.splitlines() if line.startswith("| ")]
    assert [(a.strip(), b.strip()) for a, b in rows[1:]] == [
        ("pending", "`pending/model-metadata`")
    ] * 2


def test_an_admission_left_undecided_is_not_ok(tmp_path):
    """Allowed only as far as modetable can tell: each reason a check is left
    undecided is a finding (a run of checks undecided for one reason is one),
    so the audit does not call the InferenceService ok."""
    documents = [
        model_doc("m", **llama_model_spec()),
        runtime_doc("rt", supportedModelFormats=[format_entry()]),
        isvc_doc(
            "svc",
            "a",
            engine={},
            deploymentMode="OMENative",
            rollout={
                "groups": [
                    {"components": ["engine"], "policyRef": {"name": "p"}},
                ]
            },
        ),
        isvc_doc(
            "inline",
            "a",
            engine={},
            deploymentMode="OMENative",
            rollout={"groups": [{"components": ["engine"], "blueGreen": {}}]},
        ),
    ]
    path = write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    run = run_cli("audit", str(path), "-o", "json")
    assert run.code == 0
    items = _by_ref(run.json())
    later = (
        "rollout-canary, rollout-coordination, rollout-budgets, rollout-ratio-tolerance, "
        "rollout-zero-budget, rollout-soak, rollout-ratio-tolerance-high, rollout-ordering"
    )
    assert [(f["severity"], f["id"], f["message"]) for f in items["a/svc"]["findings"]] == [
        (
            "warning",
            "not_checked/rollout-policy-refs",
            "Not checked: rollout-policy-refs: a rollout group has a policyRef: the webhook "
            "denies it (RolloutPolicyRefUnsupported) unless the cluster has the RolloutPolicy "
            "feature, which is off by default and not decided here",
        ),
        (
            "info",
            "not_checked/rollout-canary",
            f"Not checked: {later}: a rollout group has a policyRef: whether the webhook gets "
            "this far depends on the cluster's RolloutPolicy feature, which is not decided here",
        ),
    ]
    assert [(f["severity"], f["id"], f["message"]) for f in items["a/inline"]["findings"]] == [
        (
            "info",
            "not_checked/rollout-plan-size",
            "Not checked: rollout-plan-size: a rollout group has an inline progression: its "
            "size is checked against the operator's rollout.maxPinnedPlanBytes, which is not "
            "decided here",
        ),
    ]
    assert run.json()["summary"]["ok"] == 0
    failing = run_cli("audit", str(path), "--fail-on", "warning")
    assert failing.code == 1


def test_a_named_runtimes_model_format_finding_says_the_ordering_in_its_hint(tmp_path):
    """OME's text stays the message; the hint says the comparison OME made (the
    entry's version on the left), and an entry refused otherwise says nothing."""
    ordered = format_entry(
        modelFramework={
            "name": "transformers",
            "version": "4.33.1",
            "operator": "GreaterThanOrEqual",
        }
    )
    docs = [
        isvc_doc(runtime={"name": "rt"}),
        model_doc(**llama_model_spec(modelFramework={"name": "transformers", "version": "4.46.0"})),
        runtime_doc(supportedModelFormats=[ordered]),
    ]
    path = write(tmp_path, "all.yaml", yaml.safe_dump_all(docs, sort_keys=False))
    (item,) = run_cli("audit", str(path), "-o", "json").json()["items"]
    assert item["findings"] == [
        {
            "severity": "warning",
            "id": "check/model-format",
            "message": "Runtime rt does not declare support for model m (runtime rt does not "
            "support model safetensors: model format "
            "'mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.46.0' not in supported "
            "formats: framework version mismatch (model=4.46.0, runtime=4.33.1)); proceeding "
            "because the runtime was named explicitly",
            "location": {"file": str(path), "line": 8, "col": 11},
            "object": {"kind": "ClusterServingRuntime", "namespace": None, "name": "rt"},
            "hint": "4.33.1 >= 4.46.0 is false: OME compares the runtime's version to the model's",
            "related": [
                {"file": str(path), "line": 28, "col": 1, "label": "ClusterServingRuntime rt"}
            ],
            "pending": False,
        }
    ]
    # Equal decides by equality, no ordering: no words beside OME's.
    docs[2] = runtime_doc(
        supportedModelFormats=[
            format_entry(modelFramework={"name": "transformers", "version": "4.33.1"})
        ]
    )
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    (item,) = run_cli("audit", str(path), "-o", "json").json()["items"]
    assert [(f["id"], f["hint"]) for f in item["findings"]] == [("check/model-format", None)]
