"""`modetable select`: the page's example end to end, the table, the JSON
contract, exit codes and bad input."""

from __future__ import annotations

import shutil

import yaml
from conftest import (
    EXAMPLES,
    format_entry,
    isvc_doc,
    llama_model_spec,
    model_doc,
    run_cli,
    runtime_doc,
    write,
)

PAGE_MESSAGE = (
    "no runtime found to support model safetensors with format safetensors in namespace "
    "llama-demo. Checked 2 runtimes (0 namespace-scoped, 2 cluster-scoped). Excluded runtimes: "
    "srt-llama-3-3-70b-instruct-multinode (runtime engine deployment mode MultiNode does not "
    "match requested engine deployment mode OMENative)"
)


def test_the_bundled_example_prints_the_pages_message_and_exits_1():
    run = run_cli("select", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES))
    assert run.code == 1, run.err
    lines = run.out.splitlines()
    assert lines[0] == "InferenceService llama-demo/llama-3-70b: no runtime (v1.3)"
    assert lines[1] == PAGE_MESSAGE
    assert "Admission: denied" in lines
    assert run.err == ""


def test_json_contract_of_the_example():
    run = run_cli("select", "--isvc", "llama-demo/llama-3-70b", str(EXAMPLES), "-o", "json")
    assert run.code == 1
    data = run.json()
    assert list(data) == [
        "isvc",
        "version",
        "result",
        "runtime",
        "named",
        "message",
        "admission",
        "events",
        "conditions",
        "components",
        "reconcile",
        "reconcile_rules",
        "reconcile_logs",
        "candidates",
        "named_check",
        "cause",
        "hint",
        "read_from",
        "model",
        "webhook_model",
        "controller_log",
        "lookup",
        "rules",
    ]
    assert (data["result"], data["runtime"], data["named"], data["message"]) == (
        "none",
        None,
        False,
        PAGE_MESSAGE,
    )
    assert data["events"] == [
        {"type": "Warning", "reason": "RuntimeNotFound", "message": PAGE_MESSAGE, "outcome": "none"}
    ]
    assert data["candidates"][1] == {
        "name": "srt-llama-3-3-70b-instruct-multinode",
        "kind": "ClusterServingRuntime",
        "scope": "Cluster",
        "compatible": False,
        "reason": (
            "runtime engine deployment mode MultiNode does not match requested engine "
            "deployment mode OMENative"
        ),
        "check": "deployment-mode",
        "priority": None,
        "weight": None,
        "score": None,
    }


def cluster_file(tmp_path, *docs):
    return str(write(tmp_path, "cluster.yaml", yaml.safe_dump_all(docs, sort_keys=False)))


def test_a_picked_runtime_exits_0_with_its_warning_and_the_running_modes(tmp_path):
    path = cluster_file(
        tmp_path,
        isvc_doc(model={"name": "m"}, engine={}, router={}),
        model_doc(**llama_model_spec()),
        runtime_doc(
            "rt",
            supportedModelFormats=[format_entry()],
            routerConfig={"annotations": {"ome.io/deploymentMode": "MultiNode"}},
        ),
    )
    run = run_cli("select", "--isvc", "ns/svc", path)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert (
        lines[0]
        == "InferenceService ns/svc: runtime rt (ClusterServingRuntime, auto-selected, v1.3)"
    )
    assert "Warning: Runtime rt will be auto-selected for model m" in lines
    data = run_cli("select", "--isvc", "ns/svc", path, "-o", "json").json()
    assert data["components"]["router"] == {"mode": "MultiNode", "source": "ComponentAnnotation"}
    assert data["reconcile"] == {"router": "invalid deployment mode for router"}
    # The manager logs it under this line, with no event (the page).
    assert data["reconcile_logs"] == {"router": "Failed to reconcile component"}


def test_yaml_output(tmp_path):
    run = run_cli("select", "--isvc", "llama-demo/llama-3-70b", str(EXAMPLES), "-o", "yaml")
    assert run.code == 1
    assert yaml.safe_load(run.out)["message"] == PAGE_MESSAGE


def test_a_runtime_the_api_server_refuses_is_left_out_with_a_warning(tmp_path):
    bad = runtime_doc("rt", supportedModelFormats=[format_entry(priority="high")])
    path = cluster_file(
        tmp_path, isvc_doc(model={"name": "m"}, engine={}), model_doc(**llama_model_spec()), bad
    )
    run = run_cli("select", "--isvc", "ns/svc", path)
    assert run.code == 1
    assert run.out.startswith("InferenceService ns/svc: no runtime (v1.3)\n")
    field = "spec.supportedModelFormats[0].priority"
    assert run.err == (
        f"modetable: warning: ClusterServingRuntime rt ({path}:27:1) is left out, as the API "
        f'server refuses it: ClusterServingRuntime.ome.io "rt" is invalid: {field}: Invalid '
        f'value: "string": {field} in body must be of type integer: "string"\n'
    )


def test_an_entry_without_a_framework_is_refused_by_the_api_server(tmp_path):
    entry = format_entry()
    del entry["modelFramework"]
    path = cluster_file(
        tmp_path,
        isvc_doc(model={"name": "m"}, engine={}),
        model_doc(**llama_model_spec()),
        runtime_doc("rt", supportedModelFormats=[entry]),
    )
    run = run_cli("select", "--isvc", "ns/svc", path)
    assert run.code == 1
    assert run.err.endswith(
        'ClusterServingRuntime.ome.io "rt" is invalid: '
        "spec.supportedModelFormats[0].modelFramework: Required value\n"
    )


def test_unknown_inference_service_is_exit_2():
    run = run_cli("select", "--isvc", "nowhere/none", str(EXAMPLES))
    assert run.code == 2
    assert run.err.startswith("modetable: error: no InferenceService 'nowhere/none'")


def test_v122_on_the_example(tmp_path):
    # v1.2.2's CRD has no spec.deploymentMode: the API server refuses the
    # example as it is (Strict), and without it nothing asks for a mode, so the
    # MultiNode runtime is picked, and its annotation sets the running mode.
    argv = ("--ome-version", "v1.2.2", "select", "--isvc", "llama-demo/llama-3-70b")
    refused = run_cli(*argv, str(EXAMPLES), "-o", "json")
    assert (refused.code, refused.json()["admission"]["denied_by"]) == (1, "crd-schema")
    folder = tmp_path / "examples"
    shutil.copytree(EXAMPLES, folder)
    isvc = folder / "inference-service.yaml"
    isvc.write_text(isvc.read_text().replace("  deploymentMode: OMENative\n", ""))
    run = run_cli(*argv, str(folder), "-o", "json")
    data = run.json()
    assert (run.code, data["runtime"]["name"]) == (0, "srt-llama-3-3-70b-instruct-multinode")
    assert data["components"]["engine"] == {"mode": "MultiNode", "source": "ComponentAnnotation"}


def test_effective_now_selects_when_none_is_named(tmp_path):
    path = cluster_file(
        tmp_path,
        isvc_doc(model={"name": "m"}, engine={}),
        model_doc(**llama_model_spec()),
        runtime_doc(
            "rt",
            supportedModelFormats=[format_entry()],
            engineConfig={"annotations": {"ome.io/deploymentMode": "MultiNode"}},
        ),
    )
    run = run_cli("effective", "--isvc", "ns/svc", path)
    assert run.code == 0, run.err
    assert (
        run.out.splitlines()[0]
        == "InferenceService ns/svc: runtime rt (ClusterServingRuntime, auto-selected)"
    )
    data = run_cli("effective", "--isvc", "ns/svc", path, "-o", "json").json()
    assert (data["runtime"], data["named"]) == (
        {"name": "rt", "kind": "ClusterServingRuntime", "read_from": "manifest"},
        False,
    )
    assert data["components"]["engine"] == {"mode": "MultiNode", "source": "ComponentAnnotation"}
