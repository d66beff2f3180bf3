"""OME's model lookup, as each part runs it: the webhook by name (the
namespace's BaseModel, then the ClusterBaseModel, whatever spec.model.kind
says: `selection.model_ref.webhook_lookup`), the controller by kind. Where the
two find different objects, admission is the webhook's and the rest the
controller's."""

from __future__ import annotations

import yaml
from conftest import (
    format_entry,
    isvc_doc,
    llama_model_spec,
    model_doc,
    rules_copy,
    run_cli,
    runtime_doc,
    write,
)

_RUNTIME = runtime_doc("rt-llama", supportedModelFormats=[format_entry()])
_SUPPORTED = llama_model_spec()
_OTHER = llama_model_spec(modelArchitecture="DifferentForCausalLM")
_AUTO = "Runtime rt-llama will be auto-selected for model m"
_NONE_FOR_OTHER = (
    "no runtime found to support model safetensors with format safetensors in namespace ns. "
    "Checked 1 runtimes (0 namespace-scoped, 1 cluster-scoped). Excluded runtimes: rt-llama "
    "(model format 'mt:safetensors:1.0.0:DifferentForCausalLM:transformers:4.45.0.dev0' not in "
    "supported formats: architecture mismatch (model=DifferentForCausalLM, "
    "runtime=LlamaForCausalLM))"
)


def _select(tmp_path, *documents: dict, argv: tuple[str, ...] = ()) -> dict:
    files = write(tmp_path, "objects.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    run = run_cli(*argv, "select", "--isvc", "ns/svc", str(files), "-o", "json")
    assert run.err == ""
    return run.json()


def _models(data: dict) -> tuple:
    def named(found: dict | None) -> str | None:
        return None if found is None else f"{found['kind']} {found['namespace']}/{found['name']}"

    return named(data["model"]), named(data["webhook_model"])


def test_the_webhook_takes_the_namespaces_basemodel_whatever_the_kind_says(tmp_path):
    # OME's TestResolveModelAndRuntime_NamespacePrecedence: a BaseModel and a
    # ClusterBaseModel of one name, spec.model.kind unset (ClusterBaseModel).
    data = _select(
        tmp_path,
        isvc_doc(engine={"minReplicas": 1}),
        model_doc("m", "BaseModel", **_SUPPORTED),
        model_doc("m", "ClusterBaseModel", **_OTHER),
        _RUNTIME,
    )
    # Admission and the webhook's runtime resolution: the BaseModel's.
    assert data["admission"]["allowed"] is True
    assert data["admission"]["warnings"] == [_AUTO]
    # The controller: the ClusterBaseModel the kind asks for, which no runtime serves.
    assert (data["result"], data["runtime"], data["message"]) == ("none", None, _NONE_FOR_OTHER)
    assert [(e["reason"], e["message"]) for e in data["events"]] == [
        ("RuntimeNotFound", _NONE_FOR_OTHER)
    ]
    assert _models(data) == ("ClusterBaseModel None/m", "BaseModel ns/m")
    assert data["lookup"] == (
        "the webhook finds BaseModel ns/m by name, and admission and its runtime resolution "
        "use it; the controller looks up ClusterBaseModel m, the kind spec.model asks for, and "
        "its runtime, events, conditions and modes use that"
    )
    assert data["controller_log"] is None


def test_the_other_way_round_the_webhook_denies_what_the_controller_would_run(tmp_path):
    data = _select(
        tmp_path,
        isvc_doc(engine={"minReplicas": 1}),
        model_doc("m", "BaseModel", **_OTHER),
        model_doc("m", "ClusterBaseModel", **_SUPPORTED),
        _RUNTIME,
    )
    assert data["admission"]["allowed"] is False
    assert data["admission"]["denied_by"] == "runtime-resolution"
    assert data["admission"]["message"] == (
        'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
        "no supporting runtime found for model m and engine does not have complete runner "
        f"configuration: {_NONE_FOR_OTHER}"
    )
    assert (data["result"], data["runtime"]["name"]) == ("picked", "rt-llama")
    assert _models(data) == ("ClusterBaseModel None/m", "BaseModel ns/m")


def test_one_model_for_both_when_the_kind_is_the_webhooks_first(tmp_path):
    data = _select(
        tmp_path,
        isvc_doc(engine={"minReplicas": 1}, model={"name": "m", "kind": "BaseModel"}),
        model_doc("m", "BaseModel", **_SUPPORTED),
        model_doc("m", "ClusterBaseModel", **_OTHER),
        _RUNTIME,
    )
    assert (data["result"], data["admission"]["allowed"]) == ("picked", True)
    assert _models(data) == ("BaseModel ns/m", None)
    assert data["lookup"] is None


def test_the_controller_stops_silently_where_the_kind_finds_nothing(tmp_path):
    # Only a BaseModel: the webhook finds it and admits; the controller asks for
    # the ClusterBaseModel (the default kind), logs and stops.
    data = _select(
        tmp_path,
        isvc_doc(engine={"minReplicas": 1}),
        model_doc("m", "BaseModel", **_SUPPORTED),
        _RUNTIME,
    )
    assert data["admission"]["allowed"] is True
    assert data["admission"]["warnings"] == [_AUTO]
    assert data["result"] == "model_missing"
    assert data["runtime"] is None
    assert data["message"] == 'clusterbasemodels.ome.io "m" not found'
    assert data["hint"] == 'BaseModel "ns/m" exists'
    assert (data["events"], data["conditions"]) == ([], [])
    assert data["controller_log"] == "Failed to get referenced ClusterBaseModel"
    assert _models(data) == (None, "BaseModel ns/m")
    assert data["lookup"] == (
        "the webhook finds BaseModel ns/m by name, and admission and its runtime resolution "
        "use it; the controller looks up ClusterBaseModel m, the kind spec.model asks for, finds "
        'none and stops: no workload and no event, only the log line "Failed to get referenced '
        'ClusterBaseModel"'
    )


def test_a_basemodel_asked_for_and_only_a_clustermodel_there(tmp_path):
    data = _select(
        tmp_path,
        isvc_doc(engine={"minReplicas": 1}, model={"name": "m", "kind": "BaseModel"}),
        model_doc("m", "ClusterBaseModel", **_SUPPORTED),
        _RUNTIME,
    )
    assert data["admission"]["allowed"] is True
    assert (data["result"], data["message"]) == ("model_missing", 'basemodels.ome.io "m" not found')
    assert data["controller_log"] == "Failed to get referenced BaseModel"
    assert _models(data) == (None, "ClusterBaseModel None/m")


def test_neither_finds_it_the_webhook_denies_as_before(tmp_path):
    data = _select(tmp_path, isvc_doc(engine={"minReplicas": 1}), _RUNTIME)
    assert data["admission"]["denied_by"] == "model-exists"
    assert data["result"] == "model_missing"
    assert (data["model"], data["webhook_model"], data["controller_log"]) == (None, None, None)


def test_the_lookup_order_is_the_rules(tmp_path):
    rules = rules_copy(
        tmp_path / "rules" / "modes.yaml",
        (
            "    webhook_lookup: [BaseModel, ClusterBaseModel]",
            "    webhook_lookup: [ClusterBaseModel, BaseModel]",
        ),
    )
    data = _select(
        tmp_path,
        isvc_doc(engine={"minReplicas": 1}),
        model_doc("m", "BaseModel", **_SUPPORTED),
        model_doc("m", "ClusterBaseModel", **_OTHER),
        _RUNTIME,
        argv=("--rules", str(rules)),
    )
    # The webhook now finds the ClusterBaseModel first: the controller's own.
    assert _models(data) == ("ClusterBaseModel None/m", None)
    assert data["admission"]["allowed"] is False


def test_the_audit_says_what_select_says(tmp_path):
    documents = (
        isvc_doc(engine={"minReplicas": 1}),
        model_doc("m", "BaseModel", **_SUPPORTED),
        model_doc("m", "ClusterBaseModel", **_OTHER),
        _RUNTIME,
    )
    selected = _select(tmp_path, *documents)
    files = tmp_path / "objects.yaml"
    (item,) = run_cli("audit", str(files), "-o", "json").json()["items"]
    for key in ("result", "admission", "events", "model", "webhook_model", "lookup"):
        assert item[key] == selected[key], key


def test_explain_says_which_model_each_part_uses(tmp_path):
    files = write(
        tmp_path,
        "objects.yaml",
        yaml.safe_dump_all(
            [
                isvc_doc(engine={"minReplicas": 1}),
                model_doc("m", "BaseModel", **_SUPPORTED),
                model_doc("m", "ClusterBaseModel", **_OTHER),
                _RUNTIME,
            ],
            sort_keys=False,
        ),
    )
    run = run_cli("explain", "--isvc", "ns/svc", str(files), "-o", "json")
    data = run.json()
    assert data["model"] == {"name": "m", "kind": "BaseModel", "read_from": "manifest"}
    assert data["lookup"] == (
        "the webhook finds BaseModel ns/m by name, and admission and its runtime resolution "
        "use it; the controller looks up ClusterBaseModel m, the kind spec.model asks for, and "
        "its runtime, events, conditions and modes use that"
    )
    assert run.err == f"Model: {data['lookup']}\n"
